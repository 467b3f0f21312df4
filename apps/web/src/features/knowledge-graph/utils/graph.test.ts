import { describe, expect, it } from 'vitest';
import { addToGraph, EMPTY_GRAPH } from './graph.ts';
import { layoutGraph } from './layout.ts';
import { classLabel } from './vertex-classes.ts';

const vertex = (bid: string, cls = 'observation') => ({ bid, class: cls, display: bid });
const edge = (from: string, to: string) => ({
  bid: `${from}|${to}`,
  from,
  to,
  rel: 'suggests',
  class: 'relationship',
  weight: 1,
});

describe('knowledge graph', () => {
  it('adds only the vertexes and edges not already present, and drops dangling edges', () => {
    const first = addToGraph(EMPTY_GRAPH, {
      vertexes: [vertex('a', 'condition'), vertex('b'), vertex('b')],
      edges: [edge('a', 'b'), edge('a', 'b'), edge('a', 'zz')],
    });
    expect(first.vertexes.map((v) => v.bid)).toEqual(['a', 'b']);
    expect(first.edges.map((e) => e.bid)).toEqual(['a|b']);
    const second = addToGraph(first, {
      vertexes: [vertex('b'), vertex('c')],
      edges: [edge('a', 'b'), edge('b', 'c')],
    });
    expect(second.vertexes.map((v) => v.bid)).toEqual(['a', 'b', 'c']);
    expect(second.edges.map((e) => e.bid)).toEqual(['a|b', 'b|c']);
  });

  it('lays nodes and edge labels out as boxes that never overlap (issue 20 #27)', async () => {
    const graph = addToGraph(EMPTY_GRAPH, {
      vertexes: [
        vertex('a long condition name', 'condition'),
        ...['b', 'c', 'd', 'e', 'f'].map((id) => vertex(`observation ${id}`)),
      ],
      edges: ['b', 'c', 'd', 'e', 'f'].map((id) =>
        edge('a long condition name', `observation ${id}`),
      ),
    });
    const layout = await layoutGraph(graph);
    const boxes = [
      ...[...layout.nodes.values()],
      ...[...layout.edges.values()].map((route) => route.label),
    ];
    expect(boxes).toHaveLength(11);
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.x + a.width <= b.x ||
          b.x + b.width <= a.x ||
          a.y + a.height <= b.y ||
          b.y + b.height <= a.y;
        expect(apart).toBe(true);
      }
    }
  });

  it('names vertex classes in words', () => {
    expect(classLabel('anatomicalLocation')).toBe('Anatomical location');
    expect(classLabel('labTest')).toBe('Lab test');
    expect(classLabel('condition')).toBe('Condition');
  });
});
