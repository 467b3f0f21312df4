import ELK, { type ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { Graph } from './graph.ts';

/** Node labels longer than this are cut; the full text is in the node's tooltip. */
export const MAX_LABEL = 28;

/** A label as drawn: the display cut to MAX_LABEL characters. */
export function shortLabel(text: string): string {
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1).trimEnd()}…` : text;
}

/** Box sizes in px, from the fonts the canvas draws with (13 px nodes, 11 px edge labels). */
const NODE_CHAR = 7.4;
const NODE_PADDING = 34;
export const NODE_HEIGHT = 34;
const EDGE_CHAR = 6.4;
const EDGE_PADDING = 10;
export const EDGE_LABEL_HEIGHT = 18;

export const nodeWidth = (display: string) =>
  Math.ceil(NODE_PADDING + NODE_CHAR * shortLabel(display).length);
export const edgeLabelWidth = (rel: string) => Math.ceil(EDGE_PADDING + EDGE_CHAR * rel.length);

export interface Point {
  x: number;
  y: number;
}

/** A box: top-left corner and size, in px. */
export type Box = Point & { width: number; height: number };

export interface GraphLayout {
  /** Each vertex's box, by bid. */
  nodes: Map<string, Box>;
  /** Each edge's route (start, bends, end) and its label's box, by bid. */
  edges: Map<string, { points: Point[]; label: Box }>;
}

const elk = new ELK();

/**
 * Lays the graph out with ELK's layered algorithm (left to right): every node and every edge
 * label is a box of its text's size, and ELK places the boxes so that none covers another
 * (issue 20 #27). Replaces the circle + force layout of spec 3 §2, whose labels overlapped.
 */
export async function layoutGraph(graph: Graph): Promise<GraphLayout> {
  const input: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.edgeRouting': 'POLYLINE',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '6',
      'elk.spacing.edgeNode': '16',
      'elk.layered.spacing.nodeNodeBetweenLayers': '60',
      'elk.layered.spacing.edgeNodeBetweenLayers': '24',
      'elk.edgeLabels.inline': 'false',
    },
    children: graph.vertexes.map((vertex) => ({
      id: vertex.bid,
      width: nodeWidth(vertex.display),
      height: NODE_HEIGHT,
    })),
    edges: graph.edges.map((edge) => ({
      id: edge.bid,
      sources: [edge.from],
      targets: [edge.to],
      labels: [{ text: edge.rel, width: edgeLabelWidth(edge.rel), height: EDGE_LABEL_HEIGHT }],
    })),
  };
  const result = await elk.layout(input);
  const nodes: GraphLayout['nodes'] = new Map();
  for (const child of result.children ?? []) {
    nodes.set(child.id, {
      x: child.x ?? 0,
      y: child.y ?? 0,
      width: child.width ?? 0,
      height: child.height ?? 0,
    });
  }
  const edges: GraphLayout['edges'] = new Map();
  for (const edge of result.edges ?? []) {
    const section = edge.sections?.[0];
    const label = edge.labels?.[0];
    if (!section || !label) {
      continue;
    }
    edges.set(edge.id, {
      points: [section.startPoint, ...(section.bendPoints ?? []), section.endPoint],
      label: {
        x: label.x ?? 0,
        y: label.y ?? 0,
        width: label.width ?? 0,
        height: label.height ?? 0,
      },
    });
  }
  return { nodes, edges };
}
