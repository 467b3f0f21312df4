import { Alert, Box, Button, Chip, List, ListItem, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import type {
  ConversationMemory,
  MemoryVertexKind,
} from '@loopdesk/contracts/conversation-insights.ts';
import {
  KIND_COLOURS,
  KIND_LABELS,
  flatLayout,
  hasWebGl,
  toGraphData,
  type GraphLink,
  type GraphNode,
} from '../utils/graph-data.ts';

const HEIGHT = 420;
export const NO_WEBGL_MESSAGE =
  'This browser offers no WebGL, so the memory is drawn flat instead of in 3D.';

type Drawing = {
  update(data: { nodes: GraphNode[]; links: GraphLink[] }): void;
  focus(id: string | null): void;
  destroy(): void;
};

/** The 3D force graph (3d-force-graph, loaded only here so the portal's first load stays small). */
async function draw3d(element: HTMLElement, onClick: (id: string) => void): Promise<Drawing> {
  const { default: ForceGraph3D } = await import('3d-force-graph');
  const graph = new ForceGraph3D(element)
    .width(element.clientWidth || 600)
    .height(HEIGHT)
    .backgroundColor('#121212')
    .nodeId('id')
    .nodeLabel((n) => (n as GraphNode).label)
    .nodeColor((n) => (n as GraphNode).colour)
    .nodeVal((n) => ((n as GraphNode).kind === 'patient' ? 6 : 2))
    .linkLabel((l) => (l as GraphLink).rel)
    .linkDirectionalArrowLength(3)
    .onNodeClick((n) => onClick(String(n.id)));
  return {
    update: (data) => graph.graphData(data),
    focus(id) {
      const node = graph.graphData().nodes.find((n) => n.id === id);
      if (node && node.x !== undefined && node.y !== undefined && node.z !== undefined) {
        const ratio = 1 + 80 / Math.max(Math.hypot(node.x, node.y, node.z), 1);
        graph.cameraPosition(
          { x: node.x * ratio, y: node.y * ratio, z: node.z * ratio },
          { x: node.x, y: node.y, z: node.z },
          800,
        );
      }
    },
    destroy: () => graph._destructor(),
  };
}

/** The flat drawing on a 2D canvas, when the browser has no WebGL. */
function draw2d(element: HTMLElement, onClick: (id: string) => void): Drawing {
  const canvas = document.createElement('canvas');
  canvas.width = element.clientWidth || 600;
  canvas.height = HEIGHT;
  canvas.setAttribute('aria-hidden', 'true');
  element.appendChild(canvas);
  let data: { nodes: GraphNode[]; links: GraphLink[] } = { nodes: [], links: [] };
  let focused: string | null = null;
  let positions = new Map<string, { x: number; y: number }>();
  const paint = () => {
    const context = canvas.getContext('2d');
    if (!context) {
      return;
    }
    positions = flatLayout(data.nodes, canvas.width, canvas.height);
    context.fillStyle = '#121212';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.strokeStyle = '#666';
    for (const link of data.links) {
      const a = positions.get(link.source);
      const b = positions.get(link.target);
      if (a && b) {
        context.beginPath();
        context.moveTo(a.x, a.y);
        context.lineTo(b.x, b.y);
        context.stroke();
      }
    }
    context.font = '12px sans-serif';
    for (const node of data.nodes) {
      const p = positions.get(node.id);
      if (!p) {
        continue;
      }
      context.fillStyle = node.colour;
      context.beginPath();
      context.arc(p.x, p.y, node.kind === 'patient' ? 12 : 8, 0, 2 * Math.PI);
      context.fill();
      if (node.id === focused) {
        context.strokeStyle = '#fff';
        context.lineWidth = 3;
        context.stroke();
        context.lineWidth = 1;
        context.strokeStyle = '#666';
      }
      context.fillStyle = '#eee';
      context.fillText(node.label.slice(0, 28), p.x + 12, p.y + 4);
    }
  };
  canvas.addEventListener('click', (event) => {
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    for (const [id, p] of positions) {
      if (Math.hypot(p.x - x, p.y - y) < 14) {
        onClick(id);
        return;
      }
    }
  });
  return {
    update(next) {
      data = next;
      paint();
    },
    focus(id) {
      focused = id;
      paint();
    },
    destroy: () => canvas.remove(),
  };
}

/**
 * The memory graph (spec 3 §2 "Opening shows a 3D graph"): nodes coloured by kind, a click (or
 * the node list, for the keyboard) focuses one. Without WebGL it is drawn flat, and says so.
 */
export function MemoryGraph({ memory }: { memory: ConversationMemory | undefined }) {
  const container = useRef<HTMLDivElement>(null);
  const drawing = useRef<Drawing | null>(null);
  const nodes = useRef<GraphNode[]>([]);
  const [flat, setFlat] = useState(() => !hasWebGl());
  const [focused, setFocused] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const element = container.current;
    if (!element) {
      return;
    }
    let cancelled = false;
    const onClick = (id: string) => setFocused(id);
    const start = !flat
      ? draw3d(element, onClick).catch(() => {
          setFlat(true);
          return draw2d(element, onClick);
        })
      : Promise.resolve(draw2d(element, onClick));
    void start.then((made) => {
      if (cancelled) {
        made.destroy();
        return;
      }
      drawing.current = made;
      setReady(true);
    });
    return () => {
      cancelled = true;
      drawing.current?.destroy();
      drawing.current = null;
    };
    // Drawn once per mount: falling back to the flat drawing must not start a second one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const version = memory
    ? `${memory.version ?? ''}:${memory.vertices.length}:${memory.edges.length}`
    : '';
  useEffect(() => {
    if (memory && ready && drawing.current) {
      const data = toGraphData(memory, nodes.current);
      nodes.current = data.nodes;
      drawing.current.update(data);
    }
    // Redrawn only when the memory changed: a poll that brings nothing new leaves it alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version, ready]);

  useEffect(() => {
    drawing.current?.focus(focused);
  }, [focused]);

  const focusedVertex = memory?.vertices.find((v) => v.id === focused);
  const kinds = Object.keys(KIND_COLOURS) as MemoryVertexKind[];
  return (
    <Stack spacing={1}>
      {flat && <Alert severity="info">{NO_WEBGL_MESSAGE}</Alert>}
      <Box
        component="figure"
        aria-label="Memory graph"
        ref={container}
        data-drawing={flat ? 'flat' : '3d'}
        sx={{ m: 0, height: HEIGHT, width: '100%', overflow: 'hidden', bgcolor: '#121212' }}
      />
      <Stack direction="row" spacing={1} aria-label="Legend" role="list">
        {kinds.map((kind) => (
          <Chip
            key={kind}
            role="listitem"
            size="small"
            label={KIND_LABELS[kind]}
            sx={{ bgcolor: KIND_COLOURS[kind], color: '#000' }}
          />
        ))}
      </Stack>
      {focusedVertex && (
        <Typography aria-live="polite">
          Focused: {KIND_LABELS[focusedVertex.kind ?? 'answer']} — {focusedVertex.label}
          {focusedVertex.onset ? ` (since: ${focusedVertex.onset})` : ''}
        </Typography>
      )}
      <List dense aria-label="Memory nodes" sx={{ maxHeight: 160, overflow: 'auto' }}>
        {(memory?.vertices ?? []).map((v) => (
          <ListItem key={v.id} disablePadding>
            <Button
              size="small"
              onClick={() => setFocused(v.id)}
              aria-pressed={focused === v.id}
              sx={{ textTransform: 'none', justifyContent: 'flex-start' }}
            >
              <Box
                component="span"
                aria-hidden
                sx={{
                  width: 10,
                  height: 10,
                  borderRadius: '50%',
                  bgcolor: KIND_COLOURS[v.kind ?? 'answer'],
                  mr: 1,
                }}
              />
              {KIND_LABELS[v.kind ?? 'answer']}: {v.label}
            </Button>
          </ListItem>
        ))}
      </List>
    </Stack>
  );
}
