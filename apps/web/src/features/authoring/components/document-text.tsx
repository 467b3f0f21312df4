import Box from '@mui/material/Box';
import { useVirtualizer } from '@tanstack/react-virtual';
import { observeRect } from './observe-rect.ts';
import {
  forwardRef,
  memo,
  useCallback,
  useImperativeHandle,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { CHIP_COLOURS, CHIP_TEXT, entitiesIn, type ScreenEntity } from '../model/annotations.ts';
import { blockAt, type Block } from '../model/blocks.ts';

/** The selection drawn in the text: [start, end), and the caret. */
export interface TextCursor {
  caret: number;
  /** The other end of the selection; null when nothing is selected. */
  anchor: number | null;
}

export interface DocumentTextHandle {
  /** Brings the row holding `offset` on screen. */
  scrollToOffset: (offset: number) => void;
  /** The selection's rectangle on screen (for the menu), if drawn. */
  selectionRect: () => { top: number; bottom: number; left: number } | null;
  /** The chip of an entity, if drawn. */
  chipOf: (id: string) => HTMLElement | null;
  focus: () => void;
}

export interface DocumentTextProps {
  text: string;
  blocks: readonly Block[];
  entities: readonly ScreenEntity[];
  cursor: TextCursor;
  focusedId: string | null;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  onKeyUp: (event: KeyboardEvent<HTMLDivElement>) => void;
  /** A mouse selection ended (start may equal end: a click placing the caret). */
  onMouseSelect: (start: number, end: number) => void;
  onChipClick: (id: string) => void;
  onChipDoubleClick: (id: string) => void;
  /** Height of the scrolled area. */
  height: number | string;
  label: string;
}

/** Estimated height of a row before it is measured: about 90 characters a line of 24 px. */
const estimate = (block: Block) => Math.max(1, Math.ceil((block.end - block.start) / 90)) * 24 + 4;

const chipTitle = (entity: ScreenEntity) =>
  [
    entity.state,
    entity.data.category,
    entity.data.conceptName && `${entity.data.conceptName} (${entity.data.CUI})`,
  ]
    .filter(Boolean)
    .join(' · ');

interface RowProps {
  text: string;
  start: number;
  entities: readonly ScreenEntity[];
  selStart: number;
  selEnd: number;
  caret: number;
  focusedId: string;
}

/** Plain text between chips, cut where the selection and the caret fall. */
function pieces(text: string, from: number, to: number, row: RowProps, out: ReactNode[]) {
  const inside = [row.selStart, row.selEnd, row.caret].filter((at) => at > from && at < to);
  const cuts = [...new Set([from, ...inside, to])].sort((a, b) => a - b);
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const a = cuts[i] ?? 0;
    const b = cuts[i + 1] ?? 0;
    if (a === row.caret) {
      out.push(<span key={`c${a}`} className="doc-caret" aria-hidden />);
    }
    if (a === b) {
      continue;
    }
    const selected = a >= row.selStart && b <= row.selEnd && row.selStart < row.selEnd;
    out.push(
      <span
        key={`t${a}`}
        data-offset={a}
        {...(selected ? { 'data-selection': '', className: 'doc-selection' } : {})}
      >
        {text.slice(a - row.start, b - row.start)}
      </span>,
    );
  }
}

/** One row of the document: its text with the chips, the selection and the caret in it. */
const Row = memo(function Row(row: RowProps) {
  const end = row.start + row.text.length;
  const out: ReactNode[] = [];
  let at = row.start;
  for (const entity of row.entities) {
    const chipStart = Math.max(entity.data.start, row.start);
    const chipEnd = Math.min(entity.data.end, end);
    if (chipStart > at) {
      pieces(row.text, at, chipStart, row, out);
    }
    const inner: ReactNode[] = [];
    pieces(row.text, chipStart, chipEnd, row, inner);
    out.push(
      <mark
        key={`e${entity.data.id}`}
        data-entity-id={entity.data.id}
        data-state={entity.state}
        title={chipTitle(entity)}
        className={entity.data.id === row.focusedId ? 'doc-chip doc-focused' : 'doc-chip'}
        style={{
          backgroundColor: CHIP_COLOURS[entity.state],
          color: CHIP_TEXT[entity.state],
        }}
      >
        {inner}
      </mark>,
    );
    at = chipEnd;
  }
  if (at < end) {
    pieces(row.text, at, end, row, out);
  }
  if (row.caret === end) {
    out.push(<span key="caret-end" className="doc-caret" aria-hidden />);
  }
  return <>{out}</>;
});

/** The offset of a DOM point inside the text (the pieces carry their start offset). */
function offsetOf(node: Node | null, offset: number): number | null {
  if (!node) {
    return null;
  }
  if (node.nodeType === Node.TEXT_NODE) {
    const piece = node.parentElement?.closest<HTMLElement>('[data-offset]');
    return piece ? Number(piece.dataset.offset) + offset : null;
  }
  const element = node as Element;
  const child = element.childNodes[offset];
  const inside =
    child instanceof Element
      ? child.matches('[data-offset]')
        ? child
        : child.querySelector('[data-offset]')
      : null;
  if (inside instanceof HTMLElement) {
    return Number(inside.dataset.offset);
  }
  const own = element.closest<HTMLElement>('[data-offset]');
  return own ? Number(own.dataset.offset) + (own.textContent?.length ?? 0) : null;
}

/**
 * The document's text, drawn a row at a time as it scrolls into view (issue 13 item 4): a long
 * document keeps only the rows on screen in the DOM. Chips in the colours of spec 2 §9.
 */
export const DocumentText = forwardRef<DocumentTextHandle, DocumentTextProps>(function DocumentText(
  {
    text,
    blocks,
    entities,
    cursor,
    focusedId,
    onKeyDown,
    onKeyUp,
    onMouseSelect,
    onChipClick,
    onChipDoubleClick,
    height,
    label,
  },
  ref,
) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: blocks.length,
    getScrollElement: () => scroller.current,
    observeElementRect: observeRect,
    estimateSize: (index) => estimate(blocks[index] ?? { start: 0, end: 0 }),
    overscan: 4,
  });

  useImperativeHandle(
    ref,
    () => ({
      scrollToOffset: (offset) => {
        const index = blockAt(blocks, offset);
        const element = scroller.current?.querySelector(`[data-index="${index}"]`);
        const box = scroller.current?.getBoundingClientRect();
        const rect = element?.getBoundingClientRect();
        if (!rect || !box || rect.top < box.top || rect.bottom > box.bottom) {
          virtualizer.scrollToIndex(index, { align: 'auto' });
        }
      },
      selectionRect: () => {
        const marks = scroller.current?.querySelectorAll('[data-selection]');
        const first = marks?.[0]?.getBoundingClientRect();
        const last = marks?.[marks.length - 1]?.getBoundingClientRect();
        return first && last ? { top: first.top, bottom: last.bottom, left: first.left } : null;
      },
      chipOf: (id) =>
        scroller.current?.querySelector<HTMLElement>(`[data-entity-id="${id}"]`) ?? null,
      focus: () => scroller.current?.focus(),
    }),
    [blocks, virtualizer],
  );

  const selStart = cursor.anchor === null ? -1 : Math.min(cursor.anchor, cursor.caret);
  const selEnd = cursor.anchor === null ? -1 : Math.max(cursor.anchor, cursor.caret);

  const onMouseUp = useCallback(
    (event: MouseEvent<HTMLDivElement>) => {
      if (event.detail > 1) {
        return; // a double-click: the chip's own handler
      }
      const selection = window.getSelection();
      if (!selection || selection.rangeCount === 0) {
        return;
      }
      const a = offsetOf(selection.anchorNode, selection.anchorOffset);
      const b = offsetOf(selection.focusNode, selection.focusOffset);
      if (a === null || b === null) {
        return;
      }
      onMouseSelect(Math.min(a, b), Math.max(a, b));
    },
    [onMouseSelect],
  );

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const chip = (event.target as Element).closest<HTMLElement>('[data-entity-id]');
    if (chip && event.detail === 1 && window.getSelection()?.isCollapsed !== false) {
      onChipClick(chip.dataset.entityId ?? '');
    }
  };
  const onDoubleClick = (event: MouseEvent<HTMLDivElement>) => {
    const chip = (event.target as Element).closest<HTMLElement>('[data-entity-id]');
    if (chip) {
      window.getSelection()?.removeAllRanges();
      onChipDoubleClick(chip.dataset.entityId ?? '');
    }
  };

  return (
    <Box
      ref={scroller}
      tabIndex={0}
      role="document"
      aria-label={label}
      aria-roledescription="annotated text"
      onKeyDown={onKeyDown}
      onKeyUp={onKeyUp}
      onMouseUp={onMouseUp}
      onClick={onClick}
      onDoubleClick={onDoubleClick}
      sx={{
        height,
        overflowY: 'auto',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        p: 1,
        lineHeight: '24px',
        fontSize: 16,
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        contain: 'strict',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
        '& .doc-chip': { borderRadius: '4px', px: '1px', cursor: 'pointer' },
        '& .doc-focused': {
          outline: '3px solid',
          outlineColor: 'text.primary',
          outlineOffset: '1px',
        },
        '& .doc-selection': { backgroundColor: '#FFE082', color: '#000' },
        '& .doc-caret': {
          display: 'inline-block',
          width: 0,
          height: '1.2em',
          verticalAlign: 'text-bottom',
          marginRight: '-2px',
          borderLeft: '2px solid transparent',
        },
        '&:focus .doc-caret': { borderLeftColor: 'text.primary' },
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const block = blocks[item.index] ?? { start: 0, end: 0 };
          const last = item.index === blocks.length - 1;
          const inBlock = (at: number) =>
            at >= block.start && (at < block.end || (last && at === block.end)) ? at : -1;
          const rowEntities = entitiesIn(entities, block.start, block.end);
          const focused =
            focusedId && rowEntities.some((e) => e.data.id === focusedId) ? focusedId : '';
          const overlapsSelection = selStart < block.end && selEnd > block.start;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                width: '100%',
                transform: `translateY(${item.start}px)`,
              }}
            >
              <MemoRow
                text={text.slice(block.start, block.end)}
                start={block.start}
                entities={rowEntities}
                selStart={overlapsSelection ? Math.max(selStart, block.start) : -1}
                selEnd={overlapsSelection ? Math.min(selEnd, block.end) : -1}
                caret={inBlock(cursor.caret)}
                focusedId={focused}
              />
            </div>
          );
        })}
      </div>
    </Box>
  );
});

const sameEntities = (a: readonly ScreenEntity[], b: readonly ScreenEntity[]) =>
  a.length === b.length && a.every((entity, i) => entity === b[i]);

/** A row draws again only when its text, chips, selection, caret or focus change. */
const MemoRow = memo(Row, (before, after) => {
  return (
    before.text === after.text &&
    before.start === after.start &&
    before.selStart === after.selStart &&
    before.selEnd === after.selEnd &&
    before.caret === after.caret &&
    before.focusedId === after.focusedId &&
    sameEntities(before.entities, after.entities)
  );
});
