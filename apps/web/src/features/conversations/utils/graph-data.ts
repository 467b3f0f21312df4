import type {
  ConversationMemory,
  MemoryVertexKind,
} from '@loopdesk/contracts/conversation-insights.ts';

/** Node colours by kind (with the legend); readable on the dark page. */
export const KIND_COLOURS: Record<MemoryVertexKind, string> = {
  patient: '#90caf9',
  finding: '#f48fb1',
  condition: '#ffb74d',
  answer: '#a5d6a7',
  handover: '#ce93d8',
};

export const KIND_LABELS: Record<MemoryVertexKind, string> = {
  patient: 'Patient',
  finding: 'Finding',
  condition: 'Condition',
  answer: 'Answer',
  handover: 'Handover',
};

export interface GraphNode {
  id: string;
  kind: MemoryVertexKind;
  label: string;
  colour: string;
  x?: number;
  y?: number;
  z?: number;
}

export interface GraphLink {
  id: string;
  source: string;
  target: string;
  rel: string;
}

/** What a node says of itself: the finding's presence and onset, a condition's rank. */
export function describeVertex(vertex: ConversationMemory['vertices'][number]): string {
  const parts = [vertex.label ?? vertex.id];
  if (vertex.presence === 'deny') {
    parts.push('(denied)');
  } else if (vertex.presence === 'unsure') {
    parts.push('(unsure)');
  }
  if (vertex.onset) {
    parts.push(`since: ${vertex.onset}`);
  }
  if (typeof vertex.probability === 'number') {
    parts.push(`${Math.round(vertex.probability * 100)}%`);
  }
  return parts.join(' ');
}

/**
 * The memory as graph data, reusing the nodes already drawn (their positions) so a refresh does
 * not throw the layout about.
 */
export function toGraphData(
  memory: ConversationMemory,
  previous: readonly GraphNode[] = [],
): { nodes: GraphNode[]; links: GraphLink[] } {
  const held = new Map(previous.map((n) => [n.id, n]));
  const nodes = memory.vertices.map((v) => {
    const kind = v.kind ?? 'answer';
    const node = held.get(v.id) ?? { id: v.id, kind, label: '', colour: '' };
    return Object.assign(node, { kind, label: describeVertex(v), colour: KIND_COLOURS[kind] });
  });
  const ids = new Set(nodes.map((n) => n.id));
  const links = memory.edges
    .filter((e) => ids.has(e.from) && ids.has(e.to))
    .map((e) => ({ id: e.id, source: e.from, target: e.to, rel: e.rel ?? '' }));
  return { nodes, links };
}

/** Whether this browser can draw WebGL (software rendering counts). */
export function hasWebGl(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

/** A flat layout: the patient in the middle, the rest on a circle by kind. */
export function flatLayout(
  nodes: readonly GraphNode[],
  width: number,
  height: number,
): Map<string, { x: number; y: number }> {
  const positions = new Map<string, { x: number; y: number }>();
  const others = nodes.filter((n) => n.kind !== 'patient');
  const radius = Math.min(width, height) / 2 - 40;
  for (const node of nodes.filter((n) => n.kind === 'patient')) {
    positions.set(node.id, { x: width / 2, y: height / 2 });
  }
  others.forEach((node, index) => {
    const angle = (2 * Math.PI * index) / Math.max(others.length, 1);
    positions.set(node.id, {
      x: width / 2 + radius * Math.cos(angle),
      y: height / 2 + radius * Math.sin(angle),
    });
  });
  return positions;
}
