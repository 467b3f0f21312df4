import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { AuthoringJobSummary } from '@loopdesk/contracts/routes/authoring.ts';
import { memo, useRef, type KeyboardEvent } from 'react';
import { observeRect } from './observe-rect.ts';
import { VirtualRows } from './virtual-rows.tsx';

const ROW_PX = 48;
const COLUMNS = '3fr 2fr 1.4fr';

const cell = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

const TaskRow = memo(function TaskRow({
  row,
  index,
  opening,
  busy,
  onOpen,
}: {
  row: AuthoringJobSummary;
  index: number;
  opening: boolean;
  busy: boolean;
  onOpen: (row: AuthoringJobSummary) => void;
}) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(row);
    }
  };
  return (
    <Box
      role="row"
      aria-rowindex={index + 2}
      aria-label={`${row.displayName}, ${row.jobType}`}
      tabIndex={0}
      onClick={() => onOpen(row)}
      onKeyDown={onKeyDown}
      sx={{
        display: 'grid',
        gridTemplateColumns: COLUMNS,
        alignItems: 'center',
        gap: 2,
        px: 2,
        height: ROW_PX,
        borderBottom: 1,
        borderColor: 'divider',
        cursor: busy ? 'progress' : 'pointer',
        '&:hover': { bgcolor: 'action.hover' },
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
      }}
    >
      <Box role="cell" sx={cell}>
        {row.displayName}
        {opening ? <CircularProgress size={14} sx={{ ml: 1 }} aria-label="Opening" /> : null}
      </Box>
      <Box role="cell" sx={cell}>
        {row.source ?? ''}
      </Box>
      <Box role="cell" sx={cell}>
        {row.jobType}
      </Box>
    </Box>
  );
});

/**
 * The 'Authoring Tasks' table (spec 2 §2): Document Name, Document Source, Job Type. It lists every
 * document waiting for authoring, so only the rows on screen are drawn.
 */
export function TaskTable({
  rows,
  loading,
  loaded,
  onOpen,
}: {
  rows: readonly AuthoringJobSummary[];
  /** The key of the row being opened, if any. */
  loading: string | null;
  /** The list has been read (so an empty one says so). */
  loaded: boolean;
  onOpen: (row: AuthoringJobSummary) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's own memoization
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    observeElementRect: observeRect,
    estimateSize: () => ROW_PX,
    overscan: 8,
  });
  return (
    <Paper
      role="table"
      aria-label="Authoring tasks"
      aria-busy={loading !== null}
      aria-rowcount={rows.length + 1}
    >
      <Box role="rowgroup">
        <Box
          role="row"
          aria-rowindex={1}
          sx={{
            display: 'grid',
            gridTemplateColumns: COLUMNS,
            gap: 2,
            px: 2,
            py: 1.5,
            fontWeight: 500,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Box role="columnheader">Document Name</Box>
          <Box role="columnheader">Document Source</Box>
          <Box role="columnheader">Job Type</Box>
        </Box>
      </Box>
      <Box
        ref={scroller}
        role="rowgroup"
        sx={{
          // As tall as its rows, up to most of the screen; beyond that it scrolls.
          height: `min(70vh, ${Math.max(rows.length, 1) * ROW_PX}px)`,
          overflowY: 'auto',
          contain: 'strict',
        }}
      >
        {loaded && rows.length === 0 ? (
          <Typography sx={{ p: 2 }}>No documents to author.</Typography>
        ) : (
          <VirtualRows virtualizer={virtualizer} items={rows} keyOf={(row) => row.key}>
            {(row, index) => (
              <TaskRow
                row={row}
                index={index}
                opening={loading === row.key}
                busy={loading !== null}
                onOpen={onOpen}
              />
            )}
          </VirtualRows>
        )}
      </Box>
    </Paper>
  );
}
