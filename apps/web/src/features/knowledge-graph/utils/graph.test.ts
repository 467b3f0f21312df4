import { describe, expect, it } from 'vitest';
import { addToGraph, circlePositions, EMPTY_GRAPH, forceLayout, START_RADIUS } from './graph.ts';

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

  it('starts the nodes evenly on a circle of radius 100', () => {
    const positions = circlePositions(['a', 'b', 'c', 'd']);
    expect(START_RADIUS).toBe(100);
    for (const point of positions.values()) {
      expect(Math.hypot(point.x, point.y)).toBeCloseTo(100);
    }
    expect(positions.get('a')?.x).toBeCloseTo(0);
    expect(positions.get('a')?.y).toBeCloseTo(-100);
    expect(positions.get('c')?.y).toBeCloseTo(100);
  });

  it('spreads the nodes apart and keeps linked nodes closer than unlinked ones', () => {
    const graph = addToGraph(EMPTY_GRAPH, {
      vertexes: ['root', 'a', 'b', 'c', 'd', 'e', 'x'].map((id) => vertex(id)),
      edges: ['a', 'b', 'c', 'd', 'e'].map((id) => edge('root', id)).concat(edge('x', 'e')),
    });
    const positions = forceLayout(graph);
    const points = [...positions.values()];
    expect(points).toHaveLength(7);
    for (const point of points) {
      expect(Number.isFinite(point.x) && Number.isFinite(point.y)).toBe(true);
    }
    for (let i = 0; i < points.length; i++) {
      for (let j = i + 1; j < points.length; j++) {
        const [p, q] = [points[i], points[j]];
        expect(Math.hypot((p?.x ?? 0) - (q?.x ?? 0), (p?.y ?? 0) - (q?.y ?? 0))).toBeGreaterThan(
          30,
        );
      }
    }
    const distance = (from: string, to: string) => {
      const p = positions.get(from);
      const q = positions.get(to);
      return Math.hypot((p?.x ?? 0) - (q?.x ?? 0), (p?.y ?? 0) - (q?.y ?? 0));
    };
    expect(distance('root', 'a')).toBeLessThan(distance('x', 'a'));
    expect(forceLayout(graph)).toEqual(positions);
  });
});
