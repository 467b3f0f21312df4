import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadKnowledgeBase } from './integrity.ts';

describe('the format example in packages/clinical/README.md', () => {
  it('is a valid knowledge base, so the documentation cannot drift from the schema', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = /```json\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const kb = loadKnowledgeBase(JSON.parse(example ?? ''));
    expect(kb.items.relationships[0]?.weight).toBe('High');
    expect(kb.items.complications[0]?.acuity).toBe('emergent');
  });
});
