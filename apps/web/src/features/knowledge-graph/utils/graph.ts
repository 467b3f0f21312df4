import type { Subgraph } from '@loopdesk/contracts/intelligence.ts';

export type Vertex = Subgraph['vertexes'][number];
export type Edge = Subgraph['edges'][number];

export interface Graph {
  vertexes: Vertex[];
  edges: Edge[];
}

export const EMPTY_GRAPH: Graph = { vertexes: [], edges: [] };

/**
 * Adds the vertexes and edges of `subgraph` not already in `graph` (by bid), and drops edges
 * whose ends are missing (spec 3 §4: choosing a condition clears the graph, then adds).
 */
export function addToGraph(graph: Graph, subgraph: Subgraph): Graph {
  const vertexes = [...graph.vertexes];
  const vertexIds = new Set(vertexes.map((vertex) => vertex.bid));
  for (const vertex of subgraph.vertexes) {
    if (!vertexIds.has(vertex.bid)) {
      vertexIds.add(vertex.bid);
      vertexes.push(vertex);
    }
  }
  const edges = [...graph.edges];
  const edgeIds = new Set(edges.map((edge) => edge.bid));
  for (const edge of subgraph.edges) {
    if (!edgeIds.has(edge.bid) && vertexIds.has(edge.from) && vertexIds.has(edge.to)) {
      edgeIds.add(edge.bid);
      edges.push(edge);
    }
  }
  return { vertexes, edges };
}

export interface Point {
  x: number;
  y: number;
}

/** Spec 3 §9: the nodes start on a circle of this radius. */
export const START_RADIUS = 100;

export interface LayoutOptions {
  /** The distance the springs pull linked nodes to. */
  linkDistance?: number;
  iterations?: number;
}

/** The starting positions: evenly spaced on a circle of START_RADIUS around the origin. */
export function circlePositions(ids: readonly string[]): Map<string, Point> {
  const positions = new Map<string, Point>();
  ids.forEach((id, index) => {
    const angle = (2 * Math.PI * index) / Math.max(ids.length, 1) - Math.PI / 2;
    positions.set(id, { x: START_RADIUS * Math.cos(angle), y: START_RADIUS * Math.sin(angle) });
  });
  return positions;
}

/**
 * A small force layout (Fruchterman–Reingold): every pair of nodes repels, every edge pulls its
 * ends together, a weak pull keeps the graph centred, and the step size cools to nothing. It
 * starts from circlePositions and is deterministic.
 */
export function forceLayout(graph: Graph, options: LayoutOptions = {}): Map<string, Point> {
  const k = options.linkDistance ?? 140;
  const iterations = options.iterations ?? 300;
  const ids = graph.vertexes.map((vertex) => vertex.bid);
  const positions = circlePositions(ids);
  const nodes = ids.map((id) => positions.get(id) ?? { x: 0, y: 0 });
  const index = new Map(ids.map((id, at) => [id, at]));
  const links = graph.edges
    .map((edge) => [index.get(edge.from), index.get(edge.to)] as const)
    .filter(
      (link): link is readonly [number, number] =>
        link[0] !== undefined && link[1] !== undefined && link[0] !== link[1],
    );

  let temperature = k;
  for (let step = 0; step < iterations; step++) {
    const moves = nodes.map(() => ({ x: 0, y: 0 }));
    for (let a = 0; a < nodes.length; a++) {
      for (let b = a + 1; b < nodes.length; b++) {
        const na = nodes[a];
        const nb = nodes[b];
        const ma = moves[a];
        const mb = moves[b];
        if (!na || !nb || !ma || !mb) {
          continue;
        }
        let dx = na.x - nb.x;
        let dy = na.y - nb.y;
        let distance = Math.hypot(dx, dy);
        if (distance < 0.01) {
          // Two nodes on one spot: push them apart along a fixed direction.
          dx = 0.01 * (a - b);
          dy = 0.01;
          distance = Math.hypot(dx, dy);
        }
        const force = (k * k) / distance;
        ma.x += (dx / distance) * force;
        ma.y += (dy / distance) * force;
        mb.x -= (dx / distance) * force;
        mb.y -= (dy / distance) * force;
      }
    }
    for (const [a, b] of links) {
      const na = nodes[a];
      const nb = nodes[b];
      const ma = moves[a];
      const mb = moves[b];
      if (!na || !nb || !ma || !mb) {
        continue;
      }
      const dx = na.x - nb.x;
      const dy = na.y - nb.y;
      const distance = Math.max(Math.hypot(dx, dy), 0.01);
      const force = (distance * distance) / k;
      ma.x -= (dx / distance) * force;
      ma.y -= (dy / distance) * force;
      mb.x += (dx / distance) * force;
      mb.y += (dy / distance) * force;
    }
    nodes.forEach((node, at) => {
      const move = moves[at];
      if (!move) {
        return;
      }
      // Gravity towards the origin keeps unlinked nodes from drifting away.
      move.x -= node.x * 0.05;
      move.y -= node.y * 0.05;
      const length = Math.hypot(move.x, move.y);
      if (length > 0) {
        const limited = Math.min(length, temperature);
        node.x += (move.x / length) * limited;
        node.y += (move.y / length) * limited;
      }
    });
    temperature = Math.max(k * (1 - (step + 1) / iterations), 0.5);
  }
  return new Map(ids.map((id, at) => [id, nodes[at] ?? { x: 0, y: 0 }]));
}
