import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Graph } from '../utils/graph.ts';
import { errorAnswer, json, makeUser, type FakeHandler } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

// React Flow measures the DOM, which jsdom does not lay out: here the canvas lists what it was
// given to draw (the drawing itself: utils/graph.test.ts and e2e/usability-knowledge-graph.spec.ts).
vi.mock('../components/graph-canvas.tsx', () => ({
  GraphCanvas: ({ graph, label }: { graph: Graph; label: string }) => (
    <figure aria-label={label}>
      {graph.vertexes.map((vertex) => (
        <div key={vertex.bid} data-vertex={vertex.bid}>
          {vertex.display}
        </div>
      ))}
      {graph.edges.map((edge) => (
        <div key={edge.bid} data-edge={edge.bid}>
          {edge.rel}
        </div>
      ))}
    </figure>
  ),
}));

const CONDITIONS_PATH = 'GET /internal/intelligence/ontology/models/conditions';
const SUBGRAPH = (id: string) =>
  `GET /internal/intelligence/ontology/models/conditions/${encodeURIComponent(id)}/_subgraph`;

const CONDITIONS = {
  items: [
    { bid: 'LD:migraine', display: 'migraine' },
    { bid: 'LD:appendicitis', display: 'Appendicitis' },
    { bid: 'LD:gastroenteritis', display: 'gastroenteritis' },
  ],
};

const APPENDICITIS = {
  vertexes: [
    { bid: 'LD:appendicitis', class: 'condition', display: 'appendicitis' },
    { bid: 'LD:fever', class: 'observation', display: 'fever' },
    { bid: 'LD:fever', class: 'observation', display: 'fever' },
    { bid: 'LD:rlq-pain', class: 'observation', display: 'right lower abdominal pain' },
    { bid: 'q1', class: 'question', display: 'Q: pain', content: 'Where is the pain?' },
  ],
  edges: [
    {
      bid: 'e1',
      from: 'LD:appendicitis',
      to: 'LD:fever',
      rel: 'suggests',
      class: 'r',
      weight: 0.4,
    },
    {
      bid: 'e2',
      from: 'LD:appendicitis',
      to: 'LD:rlq-pain',
      rel: 'suggests',
      class: 'r',
      weight: 0.85,
    },
    { bid: 'e3', from: 'LD:appendicitis', to: 'q1', rel: 'asks about', class: 'q', weight: 1 },
  ],
};

const MIGRAINE = {
  vertexes: [
    { bid: 'LD:migraine', class: 'condition', display: 'migraine' },
    { bid: 'LD:headache', class: 'observation', display: 'headache' },
  ],
  edges: [
    { bid: 'e9', from: 'LD:migraine', to: 'LD:headache', rel: 'suggests', class: 'r', weight: 1 },
  ],
};

function renderInspector(
  routes: Record<string, FakeHandler> = {},
  path = '/knowledge/inspect/graph',
) {
  return renderApp({
    path,
    user: makeUser(['medical']),
    routes: {
      [CONDITIONS_PATH]: () => json(200, CONDITIONS),
      [SUBGRAPH('LD:appendicitis')]: () => json(200, APPENDICITIS),
      [SUBGRAPH('LD:migraine')]: () => json(200, MIGRAINE),
      ...routes,
    },
  });
}

const vertexesOf = (graph: HTMLElement) =>
  [...graph.querySelectorAll('[data-vertex]')].map((node) => node.getAttribute('data-vertex'));
const edgeLabelsOf = (graph: HTMLElement) =>
  [...graph.querySelectorAll('[data-edge]')].map((node) => node.textContent);

describe('knowledge graph inspector', { timeout: 20_000 }, () => {
  // The router loads the screen lazily: compile it once up front, not inside a test's wait.
  beforeAll(async () => {
    await import('./inspect-graph-route.tsx');
  });

  it('lists the conditions sorted by display name', async () => {
    const { events } = renderInspector();
    const field = await screen.findByRole('combobox', { name: 'Condition' });
    await waitFor(() =>
      expect(screen.getByRole('banner')).toHaveTextContent('Inspect Knowledge Graph'),
    );
    await events.click(field);
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Appendicitis', 'gastroenteritis', 'migraine']);
  });

  it('draws the chosen condition with its vertexes and labelled edges, and redraws on another', async () => {
    const { events, fetchMock } = renderInspector();
    await events.click(await screen.findByRole('combobox', { name: 'Condition' }));
    await events.click(await screen.findByRole('option', { name: 'Appendicitis' }));

    const graph = await screen.findByRole('figure', { name: 'Knowledge graph of Appendicitis' });
    expect(vertexesOf(graph)).toEqual(['LD:appendicitis', 'LD:fever', 'LD:rlq-pain', 'q1']);
    expect(within(graph).getByText('right lower abdominal pain')).toBeInTheDocument();
    expect(edgeLabelsOf(graph)).toEqual(['suggests', 'suggests', 'asks about']);
    const input = fetchMock.mock.calls.at(-1)?.[0];
    const url = new URL(typeof input === 'string' ? input : '', 'http://localhost');
    expect(url.searchParams.getAll('classExtensions')).toEqual([
      'medication',
      'action',
      'imaging',
      'procedure',
      'communication',
      'device',
      'labTest',
      'condition',
      'observation',
      'question',
      'anatomicalLocation',
      'bodySystem',
      'epidemiologicalFactor',
      'pathologicalProcess',
      'sex',
      'vocabulary',
    ]);

    await events.click(screen.getByRole('combobox', { name: 'Condition' }));
    await events.click(await screen.findByRole('option', { name: 'migraine' }));
    const redrawn = await screen.findByRole('figure', { name: 'Knowledge graph of migraine' });
    expect(vertexesOf(redrawn)).toEqual(['LD:migraine', 'LD:headache']);
    expect(edgeLabelsOf(redrawn)).toEqual(['suggests']);
  });

  it('keeps the chosen condition in the address, so a reload draws it again', async () => {
    const { events } = renderInspector();
    await events.click(await screen.findByRole('combobox', { name: 'Condition' }));
    await events.click(await screen.findByRole('option', { name: 'migraine' }));
    await screen.findByRole('figure', { name: 'Knowledge graph of migraine' });
    expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent(
      '/knowledge/inspect/graph?condition=LD%3Amigraine',
    );
    cleanup();

    renderInspector({}, '/knowledge/inspect/graph?condition=LD%3Aappendicitis');
    const graph = await screen.findByRole('figure', { name: 'Knowledge graph of Appendicitis' });
    expect(vertexesOf(graph)).toContain('LD:rlq-pain');
    expect(screen.getByRole('combobox', { name: 'Condition' })).toHaveValue('Appendicitis');
    expect(
      screen.queryByText('Choose a condition to inspect its knowledge graph.'),
    ).not.toBeInTheDocument();
  });

  it('drops a condition id in the address that the list does not hold, and says so', async () => {
    renderInspector({}, '/knowledge/inspect/graph?condition=LD%3Anothing');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "No condition with the id 'LD:nothing': choose one from the list.",
    );
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent(
        /^\/knowledge\/inspect\/graph$/,
      ),
    );
    expect(
      screen.getByText('Choose a condition to inspect its knowledge graph.'),
    ).toBeInTheDocument();
  });

  it('shows the HTTP error when the graph cannot be loaded', async () => {
    const { events } = renderInspector({
      [SUBGRAPH('LD:migraine')]: () => errorAnswer(404, 'Not Found', 'No condition LD:migraine.'),
    });
    await events.click(await screen.findByRole('combobox', { name: 'Condition' }));
    await events.click(await screen.findByRole('option', { name: 'migraine' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Not Found - No condition LD:migraine.',
    );
  });

  it('shows the HTTP error when the conditions cannot be loaded', async () => {
    renderInspector({
      [CONDITIONS_PATH]: () => errorAnswer(403, 'Forbidden', 'Needs graph:inspect:all.'),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Forbidden - Needs graph:inspect:all.',
    );
  });
});
