import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  BaseEdge,
  Controls,
  EdgeLabelRenderer,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  type Edge as FlowEdge,
  type EdgeProps,
  type Node as FlowNode,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useState } from 'react';
import type { Graph, Vertex } from '../utils/graph.ts';
import {
  layoutGraph,
  shortLabel,
  type Box as LayoutBox,
  type GraphLayout,
  type Point,
} from '../utils/layout.ts';
import { classLabel, colourOf } from '../utils/vertex-classes.ts';

type VertexNode = FlowNode<{ vertex: Vertex; width: number; height: number }, 'vertex'>;
type RelEdge = FlowEdge<{ rel: string; points: Point[]; label: LayoutBox }, 'rel'>;

/** What hovering a node tells: its full name, its class in words and, for a question, its text. */
function VertexTooltip({ vertex }: { vertex: Vertex }) {
  return (
    <Box component="span" sx={{ display: 'block', maxWidth: 360 }}>
      <Box component="span" sx={{ display: 'block', fontWeight: 600 }}>
        {vertex.display}
      </Box>
      <Box component="span" sx={{ display: 'block' }}>
        {classLabel(vertex.class)}
      </Box>
      {vertex.content ? (
        <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
          {vertex.content}
        </Box>
      ) : null}
    </Box>
  );
}

function VertexBox({ data }: NodeProps<VertexNode>) {
  const { vertex, width, height } = data;
  return (
    <>
      <Handle type="target" position={Position.Left} isConnectable={false} style={{ opacity: 0 }} />
      <Tooltip title={<VertexTooltip vertex={vertex} />} arrow>
        <Box
          data-vertex={vertex.bid}
          data-class={vertex.class}
          tabIndex={0}
          sx={{
            width,
            height,
            boxSizing: 'border-box',
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: 1.25,
            borderRadius: 1,
            bgcolor: '#1e1e1e',
            border: 2,
            borderColor: colourOf(vertex.class),
            color: '#fff',
            fontSize: 13,
            whiteSpace: 'nowrap',
            overflow: 'hidden',
          }}
        >
          <Box
            component="span"
            aria-hidden
            sx={{
              width: 10,
              height: 10,
              flex: 'none',
              borderRadius: '50%',
              bgcolor: colourOf(vertex.class),
            }}
          />
          <span data-graph-label>{shortLabel(vertex.display)}</span>
        </Box>
      </Tooltip>
      <Handle
        type="source"
        position={Position.Right}
        isConnectable={false}
        style={{ opacity: 0 }}
      />
    </>
  );
}

function RelEdgeView({ id, data, markerEnd }: EdgeProps<RelEdge>) {
  if (!data) {
    return null;
  }
  const path = data.points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${p.x} ${p.y}`).join(' ');
  const { label } = data;
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={{ stroke: '#9e9e9e' }} />
      <EdgeLabelRenderer>
        <Box
          data-edge={id}
          data-graph-label
          sx={{
            position: 'absolute',
            transform: `translate(${label.x}px, ${label.y}px)`,
            width: label.width,
            height: label.height,
            lineHeight: `${label.height}px`,
            textAlign: 'center',
            fontSize: 11,
            color: '#e0e0e0',
            bgcolor: '#121212',
            borderRadius: 0.5,
            whiteSpace: 'nowrap',
            pointerEvents: 'none',
          }}
        >
          {data.rel}
        </Box>
      </EdgeLabelRenderer>
    </>
  );
}

const NODE_TYPES = { vertex: VertexBox };
const EDGE_TYPES = { rel: RelEdgeView };

/** The legend: each class of the graph in words, with its colour. */
function Legend({ classes }: { classes: readonly string[] }) {
  return (
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
          label={classLabel(vertexClass)}
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
  );
}

/**
 * The graph (spec 3 §2: directed edges with their labels), drawn with React Flow so that it zooms
 * (wheel, pinch, the + / − buttons) and pans (drag), laid out by ELK so that no label covers
 * another (issue 20 #27). Loaded lazily with the screen's graph, so neither library is in the
 * main bundle.
 */
export function GraphCanvas({ graph, label }: { graph: Graph; label: string }) {
  const [layout, setLayout] = useState<{ graph: Graph; layout: GraphLayout } | null>(null);
  useEffect(() => {
    let cancelled = false;
    layoutGraph(graph)
      .then((next) => {
        if (!cancelled) {
          setLayout({ graph, layout: next });
        }
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [graph]);
  const current = layout?.graph === graph ? layout.layout : null;

  const { nodes, edges } = useMemo(() => {
    if (!current) {
      return { nodes: [], edges: [] };
    }
    const nodes: VertexNode[] = graph.vertexes.flatMap((vertex) => {
      const box = current.nodes.get(vertex.bid);
      return box
        ? [
            {
              id: vertex.bid,
              type: 'vertex' as const,
              position: { x: box.x, y: box.y },
              width: box.width,
              height: box.height,
              data: { vertex, width: box.width, height: box.height },
              draggable: false,
              selectable: false,
              // A node that is neither draggable nor selectable gets no pointer events in React
              // Flow; the tooltip needs them.
              style: { pointerEvents: 'all' as const },
            },
          ]
        : [];
    });
    const edges: RelEdge[] = graph.edges.flatMap((edge) => {
      const route = current.edges.get(edge.bid);
      return route
        ? [
            {
              id: edge.bid,
              type: 'rel' as const,
              source: edge.from,
              target: edge.to,
              ariaLabel: `${edge.from} ${edge.rel} ${edge.to}`,
              markerEnd: { type: MarkerType.ArrowClosed, color: '#9e9e9e' },
              data: { rel: edge.rel, points: route.points, label: route.label },
              selectable: false,
            },
          ]
        : [];
    });
    return { nodes, edges };
  }, [current, graph]);
  const classes = useMemo(
    () => [...new Set(graph.vertexes.map((vertex) => vertex.class))].sort(),
    [graph],
  );

  return (
    <Box>
      <Legend classes={classes} />
      <Box
        role="figure"
        aria-label={label}
        sx={{
          height: 'calc(100vh - 280px)',
          minHeight: 420,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'background.paper',
        }}
      >
        {current ? (
          <ReactFlow
            key={graph.vertexes[0]?.bid}
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            edgeTypes={EDGE_TYPES}
            colorMode="dark"
            fitView
            minZoom={0.1}
            maxZoom={3}
            nodesDraggable={false}
            nodesConnectable={false}
            elementsSelectable={false}
            proOptions={{ hideAttribution: true }}
          >
            <Controls showInteractive={false} />
          </ReactFlow>
        ) : (
          <LinearProgress aria-label="Laying out the graph" />
        )}
      </Box>
      <Typography variant="caption" color="text.secondary">
        Scroll or use + and − to zoom, drag the background to pan; hover a node for its full name.
      </Typography>
    </Box>
  );
}
