import { describe, expect, it } from 'vitest';
import {
  ClinicalSummary,
  ConversationMemory,
  DemoConversationList,
  MemoryQuery,
} from './conversation-insights.ts';

describe('conversation visualiser schemas', () => {
  it('reads a memory graph of vertices and edges (spec 3 §3, §7), keeping their other fields', () => {
    const memory = ConversationMemory.parse({
      vertices: [
        { id: 'v1', label: 'fever' },
        { id: 'v2', label: 'sore throat' },
      ],
      edges: [{ id: 'e1', from: 'v1', to: 'v2', rel: 'with' }],
    });
    expect(memory.edges[0]).toMatchObject({ from: 'v1', to: 'v2', rel: 'with' });
  });

  it('refuses an edge without its end, or a graph without edges', () => {
    expect(
      ConversationMemory.safeParse({ vertices: [], edges: [{ id: 'e1', from: 'v1' }] }).success,
    ).toBe(false);
    expect(ConversationMemory.safeParse({ vertices: [{ id: 'v1' }] }).success).toBe(false);
  });

  it('pages the memory with s and p from the query string, and refuses a page below 0', () => {
    expect(MemoryQuery.parse({ s: '50', p: '2' })).toEqual({ s: 50, p: 2 });
    expect(MemoryQuery.parse({})).toEqual({ s: 100, p: 0 });
    expect(MemoryQuery.safeParse({ p: '-1' }).success).toBe(false);
    expect(MemoryQuery.safeParse({ s: 'all' }).success).toBe(false);
  });

  it('lists demo conversations as {conversationId, tenant} (spec 3 §3)', () => {
    expect(
      DemoConversationList.safeParse({ items: [{ conversationId: 'conv-1', tenant: 'clinic-a' }] })
        .success,
    ).toBe(true);
    expect(DemoConversationList.safeParse({ items: [{ conversationId: 'conv-1' }] }).success).toBe(
      false,
    );
  });

  it('reads the current clinical summary’s sections (spec 3 §3) and refuses one without content', () => {
    const summary = ClinicalSummary.parse({
      document: { sections: [{ id: 'hpi', content: 'Fever for two days.' }] },
    });
    expect(summary.document.sections[0]?.content).toBe('Fever for two days.');
    expect(ClinicalSummary.safeParse({ document: { sections: [{ id: 'hpi' }] } }).success).toBe(
      false,
    );
    expect(ClinicalSummary.safeParse({ sections: [] }).success).toBe(false);
  });
});
