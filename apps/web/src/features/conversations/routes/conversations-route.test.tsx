import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMemory } from '@loopdesk/contracts/conversation-insights.ts';
import type { OntologyEntry } from '@loopdesk/contracts/intelligence.ts';
import { errorAnswer, json, makeUser, type FakeHandler } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import type * as OntologyCache from '../api/ontology-cache.ts';

// jsdom has neither IndexedDB nor WebGL: the cache is a map here (its loader runs for real), and
// the graph lists what it was given to draw (the drawing itself: e2e/conversations.spec.ts).
const cache = vi.hoisted(() => new Map<string, unknown>());
vi.mock('../api/ontology-cache.ts', async (importOriginal) => {
  const real = await importOriginal<typeof OntologyCache>();
  return {
    ...real,
    openOntologyStore: () =>
      Promise.resolve({
        count: () => Promise.resolve(cache.size),
        putAll: (entries: readonly OntologyEntry[]) => {
          for (const entry of entries) {
            cache.set(entry.c, entry);
          }
          return Promise.resolve();
        },
      }),
  };
});
vi.mock('../components/memory-graph.tsx', () => ({
  MemoryGraph: ({ memory }: { memory: ConversationMemory | undefined }) => (
    <figure aria-label="Memory graph">
      {memory?.vertices.map((v) => (
        <span key={v.id} data-kind={v.kind}>
          {v.label}
        </span>
      ))}
    </figure>
  ),
}));

const ENTRY: OntologyEntry = {
  c: 'LD:fever',
  display: 'fever',
  class: 'symptom',
  aliases: [],
  codes: [],
};
const RECORDS = { items: [{ bid: 'LD:fever', codes: [], display: 'fever', name: 'fever' }] };

const landingRoutes = (conversations: { conversationId: string; tenant: string }[]) => ({
  'GET /internal/intelligence/clinical_inference/conditions': () => json(200, RECORDS),
  'GET /internal/intelligence/clinical_inference/observations': () => json(200, RECORDS),
  'GET /internal/intelligence/ontology/models/relationships': () => json(200, { items: [] }),
  'GET /internal/intelligence/clinical_inference/ontology/_count': () => json(200, { count: 1 }),
  'GET /internal/intelligence/clinical_inference/ontology': () =>
    json(200, { items: [ENTRY], page: 0, size: 10000, total: 1 }),
  'GET /internal/intelligence/demo/conversations': () => json(200, { items: conversations }),
});

const MEMORY: ConversationMemory = {
  vertices: [
    { id: 'patient', kind: 'patient', label: 'Wren Okafor' },
    { id: 'finding:LD:fever', kind: 'finding', label: 'fever', presence: 'endorse' },
  ],
  edges: [{ id: 'e1', from: 'patient', to: 'finding:LD:fever', rel: 'reports' }],
  version: 1,
};
const DIFFERENTIAL = {
  value: {
    conversationId: 'conv-1234',
    observations: [],
    inference: [
      {
        conditionName: 'influenza',
        conditionId: 'LD:influenza',
        probability: 0.62,
        acuity: 'urgent',
        complications: [],
        associatedObservations: [],
      },
    ],
    differentiatingObservations: [],
    acuity: 'urgent',
    acuityRing: 60,
  },
};
const MESSAGES = {
  items: [
    {
      id: 'm1',
      conversationId: 'conv-1234',
      direction: 'IN',
      content: 'I have a fever.',
      createdOn: '2026-01-01T00:00:00.000Z',
      author: { kind: 'patient', id: 'p1', name: 'Wren Okafor' },
      metadata: { entities: [] },
      translation: null,
      replyTo: null,
      replyType: null,
    },
  ],
  page: { number: 0, size: 100, total: 1, totalPages: 1 },
};
const EVALUATION = {
  text: 'I have a fever.',
  entities: [],
  phrases: [],
  conditions: [],
  observations: [],
  resolved: { resolvedEntities: [], resolvedPhrases: [], normalisedObservations: [] },
};

const viewerRoutes = (overrides: Record<string, FakeHandler> = {}) => ({
  'GET /internal/conversations/conv-1234/messages': () => json(200, MESSAGES),
  'GET /internal/conversations/conv-1234/memory': () => json(200, MEMORY),
  'GET /internal/intelligence/conversations/conv-1234/clinical_inference/differential_diagnosis':
    () => json(200, DIFFERENTIAL),
  'POST /internal/nlp/evaluate': () => json(200, EVALUATION),
  'GET /internal/intelligence/conversations/conv-1234/clinical_summaries/_current': () =>
    json(200, {
      document: { sections: [{ id: 'hpi', content: 'Reports fever.' }] },
      reviewed: false,
      source: 'memory',
      reviewedBy: null,
      completedAt: null,
    }),
  ...overrides,
});

const medical = makeUser(['medical']);

describe('conversations landing', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await import('./conversations-route.tsx');
  });
  beforeEach(() => cache.clear());

  it('shows load progress, caches the ontology, and enables Open once it is loaded', async () => {
    renderApp({
      path: '/conversations',
      user: medical,
      routes: landingRoutes([{ conversationId: 'conv-1234', tenant: 'acme-clinic' }]),
    });
    const progress = await screen.findByRole('region', { name: 'Load progress' });
    for (const label of ['Conditions', 'Observations', 'Relationships', 'Ontology']) {
      expect(within(progress).getByText(new RegExp(`^${label}:`))).toBeInTheDocument();
    }
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open' })).toBeEnabled());
    expect(within(progress).getByText('Ontology: 1 loaded')).toBeInTheDocument();
    expect(cache.get('LD:fever')).toEqual(ENTRY);
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  });

  it('keeps Open disabled while no conversation exists', async () => {
    renderApp({ path: '/conversations', user: medical, routes: landingRoutes([]) });
    await screen.findByText('Ontology: 1 loaded');
    expect(screen.getByRole('button', { name: 'Open' })).toBeDisabled();
  });

  it('refuses an id of 3 characters and opens a longer one', async () => {
    const { events } = renderApp({
      path: '/conversations',
      user: medical,
      routes: landingRoutes([{ conversationId: 'conv-1234', tenant: 'acme-clinic' }]),
    });
    const open = await screen.findByRole('button', { name: 'Open' });
    await waitFor(() => expect(open).toBeEnabled());
    const field = screen.getByRole('combobox', { name: 'Conversation' });
    await events.type(field, 'abc');
    await events.click(open);
    expect(
      screen.getByText('Loading a conversation needs an id longer than 3 characters.'),
    ).toBeInTheDocument();
    await events.clear(field);
    await events.type(field, 'conv-1234');
    await events.click(open);
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent(
        '/conversations?id=conv-1234&tenant=acme-clinic',
      ),
    );
  });

  it('searches by patient name and lists what it found with a way to open it', async () => {
    const { events, fetchMock } = renderApp({
      path: '/conversations',
      user: medical,
      routes: {
        ...landingRoutes([]),
        'GET /internal/conversations/_search': () =>
          json(200, {
            items: [
              {
                conversationId: 'conv-1234',
                tenant: 'acme-clinic',
                patient: { id: 'p1', name: 'Wren Okafor' },
                status: 'human',
                createdOn: '2026-01-01T00:00:00.000Z',
                lastMessageAt: null,
                messages: 3,
              },
            ],
            page: { number: 0, size: 20, hasMore: false },
          }),
      },
    });
    await events.type(await screen.findByRole('textbox', { name: 'Patient name' }), 'wren');
    await events.click(screen.getByRole('button', { name: 'Search' }));
    const table = await screen.findByRole('table', { name: 'Conversations found' });
    expect(within(table).getByText('Wren Okafor')).toBeInTheDocument();
    expect(within(table).getByText('With a human')).toBeInTheDocument();
    expect(
      within(table).getByRole('link', { name: 'Open the conversation with Wren Okafor' }),
    ).toHaveAttribute('href', '/conversations?id=conv-1234&tenant=acme-clinic');
    const searched = fetchMock.mock.calls
      .map(([input]) => new URL(typeof input === 'string' ? input : '', 'http://localhost'))
      .find((url) => url.pathname === '/internal/conversations/_search');
    expect(searched?.searchParams.get('name')).toBe('wren');
  });
});

describe('conversation viewer', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await import('./conversations-route.tsx');
  });

  it('shows the graph, Network Data with the acuity ring and differential, and Quinn Chat', async () => {
    const { events } = renderApp({
      path: '/conversations?id=conv-1234&tenant=acme-clinic',
      user: medical,
      routes: viewerRoutes(),
    });
    const graph = await screen.findByRole('figure', { name: 'Memory graph' });
    await waitFor(() => expect(within(graph).getByText('fever')).toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Wren Okafor' })).toBeInTheDocument();
    const network = screen.getByRole('region', { name: 'Network Data' });
    await waitFor(() =>
      expect(within(network).getByRole('img', { name: 'Acuity: urgent (ring 60%)' })).toBeVisible(),
    );
    expect(within(network).getByText('influenza — 62%')).toBeInTheDocument();
    const chat = screen.getByRole('region', { name: 'Quinn Chat' });
    expect(await within(chat).findByText('I have a fever.')).toBeInTheDocument();

    await events.click(within(network).getByRole('button', { name: 'Clinical summary' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clinical summary' });
    expect(await within(dialog).findByText('Reports fever.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Not reviewed: composed from the conversation memory'),
    ).toBeInTheDocument();
  });

  it("says 'Conversation not found - …' and 'Error loading conversation memory - …'", async () => {
    renderApp({
      path: '/conversations?id=conv-1234&tenant=acme-clinic',
      user: medical,
      routes: viewerRoutes({
        'GET /internal/conversations/conv-1234/messages': () =>
          errorAnswer(404, 'Not Found', 'no such conversation'),
        'GET /internal/conversations/conv-1234/memory': () =>
          errorAnswer(503, 'Service Unavailable', 'database down'),
      }),
    });
    expect((await screen.findAllByText(/^Conversation not found - /)).length).toBeGreaterThan(0);
    expect(
      (await screen.findAllByText(/^Error loading conversation memory - /)).length,
    ).toBeGreaterThan(0);
  });

  it("says 'Service unavailable' when the text evaluation fails", async () => {
    renderApp({
      path: '/conversations?id=conv-1234&tenant=acme-clinic',
      user: medical,
      routes: viewerRoutes({
        'POST /internal/nlp/evaluate': () => errorAnswer(503, 'Service Unavailable', 'down'),
      }),
    });
    expect((await screen.findAllByText('Service unavailable')).length).toBeGreaterThan(0);
  });

  it('refuses an id of 3 characters in the address', async () => {
    renderApp({ path: '/conversations?id=abc', user: medical, routes: viewerRoutes() });
    expect(
      await screen.findByText('Loading a conversation needs an id longer than 3 characters.'),
    ).toBeInTheDocument();
  });
});
