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
