import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputBase from '@mui/material/InputBase';
import Typography from '@mui/material/Typography';
import { useVirtualizer } from '@tanstack/react-virtual';
import { observeRect } from './observe-rect.ts';
import { VirtualRows } from './virtual-rows.tsx';
import type { RelationshipRow } from '@loopdesk/contracts/data-preparation.ts';
import { memo, useRef } from 'react';

const ROW_PX = 44;
const COLUMNS = '2fr 2fr 1.2fr auto';

interface RowProps {
  row: RelationshipRow;
  index: number;
  onWeight: (id: string, weight: string) => void;
  onDelete: (id: string) => void;
  onOpen: (id: string) => void;
  readOnly: boolean;
}

const TableRow = memo(function TableRow({
  row,
  index,
  onWeight,
  onDelete,
  onOpen,
  readOnly,
}: RowProps) {
  return (
    <Box
      role="row"
      aria-rowindex={index + 2}
      sx={{
        display: 'grid',
        gridTemplateColumns: COLUMNS,
        alignItems: 'center',
        gap: 1,
        px: 1,
        height: ROW_PX,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Box role="cell" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        <Box
          component="button"
          type="button"
          onDoubleClick={() => onOpen(row.id)}
          onClick={() => onOpen(row.id)}
          title="Edit this annotation"
          sx={{
            all: 'unset',
            cursor: 'pointer',
            '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
          }}
        >
          {row.entity}
        </Box>
      </Box>
      <Box role="cell" sx={{ fontSize: 13, overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {row.category}
      </Box>
      <Box role="cell">
        <InputBase
          value={row.weight}
          readOnly={readOnly}
          onChange={(event) => onWeight(row.id, event.target.value)}
          inputProps={{ 'aria-label': `Weight of ${row.entity}`, maxLength: 100 }}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1, width: '100%' }}
        />
      </Box>
      <Box role="cell">
        {readOnly ? null : (
          <Button
            size="small"
            color="error"
            onClick={() => onDelete(row.id)}
            aria-label={`DELETE ${row.entity}`}
          >
            DELETE
          </Button>
        )}
      </Box>
    </Box>
  );
});

export interface EntityTableProps {
  rows: readonly RelationshipRow[];
  onWeight: (id: string, weight: string) => void;
  onDelete: (id: string) => void;
  onOpen: (id: string) => void;
  height: number | string;
  readOnly?: boolean;
}

/**
 * The table of annotated entities (spec 2 §2): Entity, Category, Weight (editable), DELETE. Only
 * the rows on screen are drawn, so 2,000 of them cost what twenty do.
 */
export function EntityTable({
  rows,
  onWeight,
  onDelete,
  onOpen,
  height,
  readOnly = false,
}: EntityTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's own memoization
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    observeElementRect: observeRect,
    estimateSize: () => ROW_PX,
    overscan: 6,
  });
  return (
    <Box
      role="table"
      aria-label="Annotated entities"
      aria-rowcount={rows.length + 1}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Box role="rowgroup">
        <Box
          role="row"
          aria-rowindex={1}
          sx={{
            display: 'grid',
            gridTemplateColumns: COLUMNS,
            gap: 1,
            px: 1,
            py: 1,
            fontWeight: 600,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Box role="columnheader">Entity</Box>
          <Box role="columnheader">Category</Box>
          <Box role="columnheader">Weight</Box>
          <Box role="columnheader" sx={{ width: 72 }}>
            <Box component="span" sx={{ position: 'absolute', left: -10000 }}>
              Delete
            </Box>
          </Box>
        </Box>
      </Box>
      <Box ref={scroller} role="rowgroup" sx={{ height, overflowY: 'auto', contain: 'strict' }}>
        {rows.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            No annotated entities yet.
          </Typography>
        ) : (
          <VirtualRows virtualizer={virtualizer} items={rows} keyOf={(row) => row.id}>
            {(row, index) => (
              <TableRow
                row={row}
                index={index}
                onWeight={onWeight}
                onDelete={onDelete}
                onOpen={onOpen}
                readOnly={readOnly}
              />
            )}
          </VirtualRows>
        )}
      </Box>
    </Box>
  );
}
