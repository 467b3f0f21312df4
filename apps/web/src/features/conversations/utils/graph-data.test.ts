import { describe, expect, it } from 'vitest';
import { KIND_COLOURS, describeVertex, flatLayout, toGraphData } from './graph-data.ts';

const memory = {
  vertices: [
    { id: 'patient', kind: 'patient' as const, label: 'Wren Okafor' },
    {
      id: 'finding:LD:fever',
      kind: 'finding' as const,
      label: 'fever',
      presence: 'endorse' as const,
      onset: 'since yesterday',
    },
    { id: 'finding:LD:cough', kind: 'finding' as const, label: 'cough', presence: 'deny' as const },
  ],
  edges: [
    { id: 'e1', from: 'patient', to: 'finding:LD:fever', rel: 'reports' },
    { id: 'e2', from: 'patient', to: 'gone', rel: 'reports' },
  ],
};

describe('the memory as graph data', () => {
  it('colours nodes by kind, says presence and onset, and drops edges to missing nodes', () => {
    const { nodes, links } = toGraphData(memory);
    expect(nodes.map((n) => n.colour)).toEqual([
      KIND_COLOURS.patient,
      KIND_COLOURS.finding,
      KIND_COLOURS.finding,
    ]);
    expect(nodes[1]?.label).toBe('fever since: since yesterday');
    expect(describeVertex(memory.vertices[2] ?? { id: 'x' })).toBe('cough (denied)');
    expect(links).toEqual([
      { id: 'e1', source: 'patient', target: 'finding:LD:fever', rel: 'reports' },
    ]);
  });

  it('keeps the nodes already drawn (and their positions) across a refresh', () => {
    const first = toGraphData(memory);
    const fever = first.nodes[1];
    if (fever) {
      Object.assign(fever, { x: 10, y: 20, z: 30 });
    }
    const second = toGraphData(memory, first.nodes);
    expect(second.nodes[1]).toBe(fever);
    expect(second.nodes[1]).toMatchObject({ x: 10, y: 20, z: 30 });
  });

  it('lays the patient in the middle and the rest on a circle when drawn flat', () => {
    const positions = flatLayout(toGraphData(memory).nodes, 400, 400);
    expect(positions.get('patient')).toEqual({ x: 200, y: 200 });
    const fever = positions.get('finding:LD:fever');
    expect(Math.hypot((fever?.x ?? 0) - 200, (fever?.y ?? 0) - 200)).toBeCloseTo(160);
  });
});
