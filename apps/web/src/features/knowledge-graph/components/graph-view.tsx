import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useMemo } from 'react';
import { forceLayout, type Graph, type Point } from '../utils/graph.ts';

/** Sizes in graph units at the smallest scale; larger graphs scale them up (see `sizesFor`). */
const NODE_RADIUS = 14;
const LABEL_SIZE = 12;
const EDGE_LABEL_SIZE = 10;

/**
 * Node and text sizes for a graph of this extent: the SVG is fitted to the screen, so a wide
 * graph would shrink its labels out of reading; they grow with the extent instead.
 */
export function sizesFor(extent: number): { radius: number; label: number; edgeLabel: number } {
  const scale = Math.max(1, extent / 900);
  return {
    radius: NODE_RADIUS * scale,
    label: LABEL_SIZE * scale * 1.4,
    edgeLabel: EDGE_LABEL_SIZE * scale * 1.3,
  };
}
const PADDING = 80;

/** A colour per vertex class; classes not listed are grey. */
export const CLASS_COLOURS: Readonly<Record<string, string>> = {
  condition: '#e53935',
  observation: '#1e88e5',
  question: '#fdd835',
  anatomicalLocation: '#43a047',
  bodySystem: '#8e24aa',
  pathologicalProcess: '#fb8c00',
  epidemiologicalFactor: '#00acc1',
  medication: '#6d4c41',
  labTest: '#3949ab',
  imaging: '#5e35b1',
  procedure: '#d81b60',
  sex: '#c0ca33',
};
const OTHER_COLOUR = '#9e9e9e';

/** Node labels longer than this are cut; the full text is in the node's tooltip. */
const MAX_LABEL = 28;

export function shortLabel(text: string): string {
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1).trimEnd()}…` : text;
}

export function colourOf(vertexClass: string): string {
  return CLASS_COLOURS[vertexClass] ?? OTHER_COLOUR;
}

/** Where a line from `from` to `to` leaves and meets the nodes' circles. */
function trimmed(from: Point, to: Point, radius: number): { from: Point; to: Point } {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.max(Math.hypot(dx, dy), 0.01);
  const ux = dx / length;
  const uy = dy / length;
  return {
    from: { x: from.x + ux * radius, y: from.y + uy * radius },
    to: { x: to.x - ux * (radius + 4), y: to.y - uy * (radius + 4) },
  };
}

/**
 * The graph as SVG (spec 3 §2): a directed edge with its label between nodes placed by the force
 * layout, each node coloured by class and named by its display.
 */
export function GraphView({ graph, label }: { graph: Graph; label: string }) {
  const positions = useMemo(() => forceLayout(graph, { linkDistance: 190 }), [graph]);
  const points = [...positions.values()];
  const minX = Math.min(...points.map((p) => p.x)) - PADDING;
  const minY = Math.min(...points.map((p) => p.y)) - PADDING;
  const width = Math.max(...points.map((p) => p.x)) - minX + PADDING;
  const height = Math.max(...points.map((p) => p.y)) - minY + PADDING;
  const classes = [...new Set(graph.vertexes.map((vertex) => vertex.class))].sort();
  const size = sizesFor(Math.max(width, height));

  return (
    <Box>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', mb: 1 }}
        role="list"
        aria-label="Vertex classes"
      >
        {classes.map((vertexClass) => (
          <Chip
            key={vertexClass}
            role="listitem"
            size="small"
            label={vertexClass}
            variant="outlined"
            icon={
              <Box
                component="span"
                sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: colourOf(vertexClass) }}
              />
            }
          />
        ))}
      </Stack>
      <Box
        component="svg"
        role="img"
        aria-label={label}
        viewBox={`${minX} ${minY} ${width} ${height}`}
        preserveAspectRatio="xMidYMid meet"
        sx={{
          width: '100%',
          height: 'calc(100vh - 260px)',
          minHeight: 420,
          display: 'block',
          bgcolor: 'background.paper',
          borderRadius: 1,
          border: 1,
          borderColor: 'divider',
          fontFamily: 'Roboto, Helvetica, Arial, sans-serif',
        }}
      >
        <defs>
          <marker
            id="kg-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" fill="#9e9e9e" />
          </marker>
        </defs>
        <g data-testid="graph-edges">
          {graph.edges.map((edge) => {
            const from = positions.get(edge.from);
            const to = positions.get(edge.to);
            if (!from || !to) {
              return null;
            }
            const line = trimmed(from, to, size.radius);
            const middle = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
            return (
              <g key={edge.bid} data-edge={edge.bid}>
                <title>{`${edge.from} ${edge.rel} ${edge.to}`}</title>
                <line
                  x1={line.from.x}
                  y1={line.from.y}
                  x2={line.to.x}
                  y2={line.to.y}
                  stroke="#9e9e9e"
                  strokeWidth={1.5}
                  markerEnd="url(#kg-arrow)"
                />
                <text
                  x={middle.x}
                  y={middle.y}
                  textAnchor="middle"
                  dominantBaseline="middle"
                  fontSize={size.edgeLabel}
                  fill="#bdbdbd"
                  stroke="#121212"
                  strokeWidth={3}
                  paintOrder="stroke"
                >
                  {edge.rel}
                </text>
              </g>
            );
          })}
        </g>
        <g data-testid="graph-vertexes">
          {graph.vertexes.map((vertex) => {
            const at = positions.get(vertex.bid);
            if (!at) {
              return null;
            }
            return (
              <g key={vertex.bid} data-vertex={vertex.bid} data-class={vertex.class}>
                <title>
                  {vertex.content
                    ? `${vertex.display} (${vertex.class}): ${vertex.content}`
                    : `${vertex.display} (${vertex.class})`}
                </title>
                <circle
                  cx={at.x}
                  cy={at.y}
                  r={size.radius}
                  fill={colourOf(vertex.class)}
                  stroke="#fff"
                  strokeWidth={1.5}
                />
                <text
                  x={at.x}
                  y={at.y + size.radius + size.label}
                  textAnchor="middle"
                  fontSize={size.label}
                  fill="#fff"
                  stroke="#121212"
                  strokeWidth={3}
                  paintOrder="stroke"
                >
                  {shortLabel(vertex.display)}
                </text>
              </g>
            );
          })}
        </g>
      </Box>
    </Box>
  );
}
