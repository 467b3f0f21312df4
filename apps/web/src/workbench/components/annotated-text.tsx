import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { categoryColours, COLOUR_ONLY_KEY, innermostEntity } from '@loopdesk/workbench/colours.ts';
import { isCaretKey, moveCaret, renderSegments } from '@loopdesk/workbench/selection.ts';
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useHighlightView } from '../utils/highlight-view.ts';
import {
  domPointOf,
  readMessageSelection,
  segmentKeys,
  segmentLookup,
  selectionEnds,
  type MessageSelection,
  type SegmentMap,
} from './message-dom.ts';

import { Chip, CHIP_BUTTONS, chipKeyOf, TextPiece } from './annotation-pieces.tsx';
import { CATEGORY_COLOUR_RULES, CATEGORY_COLOURS } from './category-colours.ts';

/** Shown while the labels are hidden (the colour key backtick). */
export const LABELS_HIDDEN_TEXT = `Labels hidden: press ${COLOUR_ONLY_KEY} to show them.`;
/** Heading of the colour legend (the colour key 0). */
export const COLOUR_LEGEND_LABEL = 'Highlight colours';

export {
  readMessageSelection,
  segmentPointOf,
  type MessageSelection,
  type SegmentMap,
} from './message-dom.ts';

export interface AnnotatedTextProps {
  text: string;
  entities: readonly AnnotationEntity[];
  /** Accessible name of the text (default 'Message'). */
  label?: string;
  /** Label shown after each highlight; defaults to the entity's category. */
  labelOf?: (entity: AnnotationEntity) => string;
  /** A category's name in the colour legend; defaults to the category itself. */
  nameOf?: (category: string) => string;
  /** The delete button of a highlight; without it highlights have none. */
  onDelete?: (entity: AnnotationEntity) => void;
  /** A mouseup, or a key that moves the selection, ended with text selected inside the message. */
  onSelect?: (selection: MessageSelection) => void;
  /** The same, but the selection is now empty or outside the message. */
  onDeselect?: () => void;
  /** Focus the message when it mounts, so that the keyboard caret is ready for Shift+arrows. */
  autoFocus?: boolean;
}

/** Keys that move or extend a native selection (Shift+arrow and friends). */
const SELECTION_KEYS = new Set([
  'Shift',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/** Default labels: the category code itself (the federated panels pass readable names). */
const categoryOf = (entity: AnnotationEntity): string => entity.category;
const sameName = (category: string): string => category;

/** Where the keyboard caret is drawn, relative to the message box. */
interface CaretBox {
  left: number;
  top: number;
  height: number;
}

/**
 * A message with its annotations highlighted (spec 1 §2 Annotation screen): each highlight is
 * followed by its label and a delete button; labels never count in selection offsets.
 */
export const AnnotatedText = memo(function AnnotatedText({
  text,
  entities,
  label = 'Message',
  labelOf = categoryOf,
  nameOf = sameName,
  onDelete,
  onSelect,
  onDeselect,
  autoFocus = false,
}: AnnotatedTextProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  // The colour keys (spec 1 §9): colour by category, labels shown or hidden. Switching them only
  // changes two attributes of the message: the pieces already carry their colours.
  const view = useHighlightView();
  // Colours stay with their categories while the message is shown (a new one takes the next).
  const coloursRef = useRef<ReadonlyMap<string, number>>(new Map());
  const colours = useMemo(() => {
    coloursRef.current = categoryColours(entities, coloursRef.current);
    return coloursRef.current;
  }, [entities]);
  const map = useMemo((): SegmentMap => {
    const segments = renderSegments(text, entities);
    const keys = segmentKeys(segments, entities);
    return { segments, keys, lookup: segmentLookup(segments, keys) };
  }, [text, entities]);
  // The keyboard caret (a message offset): arrows move it, Shift+arrows extend the selection from
  // where it was (spec 1 §4; issue 4 "every action without a mouse").
  const caretRef = useRef(0);
  // One stable delete handler for every chip, so that unchanged chips are not drawn again.
  const onDeleteRef = useRef(onDelete);
  useEffect(() => {
    onDeleteRef.current = onDelete;
  });
  // A delete from a highlight's × keeps the focus in the message (issue 20 "focus that stays"):
  // on the next highlight's ×, else on the message itself. Here: the chips after the deleted one.
  const refocusRef = useRef<readonly string[] | null>(null);
  const deleteRef = useMemo(
    () => (entity: AnnotationEntity) => {
      const root = rootRef.current;
      const active = root?.ownerDocument.activeElement;
      if (root && active instanceof HTMLElement && root.contains(active)) {
        const buttons = [...root.querySelectorAll<HTMLElement>(CHIP_BUTTONS)];
        const at = buttons.indexOf(active);
        refocusRef.current = at < 0 ? null : buttons.slice(at + 1).map(chipKeyOf);
      }
      onDeleteRef.current?.(entity);
    },
    [],
  );
  const [caret, setCaret] = useState<CaretBox | null>(null);

  /** Selects anchor..focus in the document (collapsed: a caret) and draws the caret. */
  const place = (anchor: number, focus: number) => {
    const root = rootRef.current;
    const selection = root?.ownerDocument.getSelection();
    const from = root ? domPointOf(root, map, anchor) : null;
    const to = root ? domPointOf(root, map, focus) : null;
    if (!root || !selection || !from || !to) {
      return;
    }
    selection.setBaseAndExtent(from.node, from.offset, to.node, to.offset);
    caretRef.current = focus;
    const range = root.ownerDocument.createRange();
    range.setStart(to.node, to.offset);
    // jsdom has no layout: its ranges lack getBoundingClientRect.
    if (typeof range.getBoundingClientRect !== 'function') {
      return;
    }
    const box = range.getBoundingClientRect();
    const outer = root.getBoundingClientRect();
    setCaret({
      left: box.left - outer.left + root.scrollLeft,
      top: box.top - outer.top + root.scrollTop,
      height: box.height || 24,
    });
  };

  useEffect(() => {
    if (autoFocus) {
      rootRef.current?.focus({ preventScroll: true });
    }
    // Only when the message mounts: a new job mounts a new panel.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // New highlights move the text, and so do hidden or shown labels: draw the caret again where it
  // is (or hide it without focus).
  const labelsShown = view.labels;
  const placeRef = useRef(place);
  useEffect(() => {
    placeRef.current = place;
  });
  useEffect(() => {
    const root = rootRef.current;
    if (!root || root.ownerDocument.activeElement !== root) {
      setCaret((current) => (current === null ? current : null));
      return undefined;
    }
    // After the frame that draws the new highlight: the caret is not worth delaying it.
    const frame = requestAnimationFrame(() => {
      if (!selectionEnds(root, map)) {
        placeRef.current(caretRef.current, caretRef.current);
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [map, labelsShown]);

  useEffect(() => {
    const root = rootRef.current;
    const after = refocusRef.current;
    if (!root || after === null) {
      return;
    }
    refocusRef.current = null;
    const next = [...root.querySelectorAll<HTMLElement>(CHIP_BUTTONS)].find((button) =>
      after.includes(chipKeyOf(button)),
    );
    (next ?? root).focus({ preventScroll: next === undefined });
  }, [map]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (!isCaretKey(event.key) || event.metaKey) {
      return;
    }
    const root = rootRef.current;
    if (!root) {
      return;
    }
    event.preventDefault();
    const ends = selectionEnds(root, map) ?? {
      anchor: caretRef.current,
      focus: caretRef.current,
    };
    const focus = moveCaret(text, ends.focus, event.key, event.ctrlKey || event.altKey);
    place(event.shiftKey ? ends.anchor : focus, focus);
  };

  const report = () => {
    const root = rootRef.current;
    if (!root) {
      return;
    }
    const selection = readMessageSelection(root, map);
    if (selection) {
      onSelect?.(selection);
    } else {
      onDeselect?.();
    }
  };

  const onKeyUp = (event: KeyboardEvent) => {
    if (SELECTION_KEYS.has(event.key)) {
      report();
    }
  };

  return (
    <>
      <Box
        ref={rootRef}
        role="region"
        aria-label={label}
        data-colours={view.byCategory ? 'category' : 'single'}
        data-labels={view.labels ? 'shown' : 'hidden'}
        tabIndex={0}
        aria-roledescription="annotatable text"
        onMouseDown={(event) => {
          // A press inside the current selection would start dragging the selected text (the
          // browser's drag and drop), so a new selection begun there would never be made and a
          // digit would annotate the old one: a fresh press always starts a fresh selection.
          const selection = event.currentTarget.ownerDocument.getSelection();
          if (event.button === 0 && !event.shiftKey && selection && !selection.isCollapsed) {
            selection.removeAllRanges();
          }
        }}
        onMouseUp={(event) => {
          setCaret(null);
          // The keyboard caret goes on from where the mouse left the selection (or clicked).
          const ends = selectionEnds(event.currentTarget, map);
          if (ends) {
            caretRef.current = ends.focus;
          }
          report();
        }}
        onKeyDown={onKeyDown}
        onKeyUp={onKeyUp}
        onFocus={(event) => {
          // Tabbing in puts the keyboard caret where it was (the start at first).
          if (event.target === event.currentTarget && !selectionEnds(event.currentTarget, map)) {
            place(caretRef.current, caretRef.current);
          }
        }}
        onBlur={() => setCaret(null)}
        sx={{
          position: 'relative',
          whiteSpace: 'pre-wrap',
          fontSize: '1.25rem',
          lineHeight: 2.2,
          p: 2,
          borderRadius: 1,
          bgcolor: 'background.paper',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
          // One style sheet for every highlight and chip (hundreds of them): no per-element styles.
          '& mark': {
            color: 'inherit',
            bgcolor: 'rgba(144, 202, 249, 0.25)',
            borderBottom: '2px solid',
            borderColor: 'primary.main',
          },
          '& mark[data-deep]': { bgcolor: 'rgba(144, 202, 249, 0.45)' },
          ...CATEGORY_COLOUR_RULES,
          '&[data-labels="hidden"] .annotation-chip': { display: 'none' },
          '& .annotation-chip': {
            userSelect: 'none',
            display: 'inline-flex',
            alignItems: 'center',
            mx: 0.5,
            px: 0.75,
            borderRadius: 1,
            fontSize: '0.75rem',
            lineHeight: 1.6,
            verticalAlign: 'middle',
            bgcolor: 'primary.dark',
            color: 'primary.contrastText',
          },
          '& .annotation-chip button': {
            display: 'inline-flex',
            ml: 0.25,
            p: 0.25,
            border: 0,
            borderRadius: '50%',
            bgcolor: 'transparent',
            color: 'inherit',
            cursor: 'pointer',
          },
          '& .annotation-chip button:hover, & .annotation-chip button:focus-visible': {
            bgcolor: 'rgba(255, 255, 255, 0.2)',
            outline: 'none',
          },
        }}
      >
        {map.segments.map((segment, index) => {
          const key = map.keys[index] ?? String(index);
          if (segment.kind === 'text') {
            const inner = innermostEntity(entities, segment.entityIndexes);
            const category = inner === null ? undefined : entities[inner]?.category;
            return (
              <TextPiece
                key={`t${key}`}
                start={key}
                text={segment.text}
                depth={segment.entityIndexes.length}
                colour={category === undefined ? undefined : colours.get(category)}
              />
            );
          }
          const entity = entities[segment.entityIndex];
          return (
            <Chip
              key={`l${key}`}
              labelKey={key}
              label={entity && labelOf ? labelOf(entity) : segment.text}
              entity={entity}
              colour={entity ? colours.get(entity.category) : undefined}
              onDelete={onDelete ? deleteRef : undefined}
            />
          );
        })}
        {caret ? (
          <Box
            aria-hidden
            data-testid="keyboard-caret"
            sx={{
              position: 'absolute',
              left: caret.left,
              top: caret.top,
              height: caret.height,
              width: 2,
              bgcolor: 'primary.main',
              pointerEvents: 'none',
              animation: 'caret-blink 1s steps(1) infinite',
              '@keyframes caret-blink': { '50%': { opacity: 0 } },
            }}
          />
        ) : null}
      </Box>
      {view.byCategory && colours.size > 0 ? (
        <Box
          component="ul"
          aria-label={COLOUR_LEGEND_LABEL}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', m: 0, mt: 1, p: 0 }}
        >
          {[...colours].map(([category, colour]) => (
            <Box
              component="li"
              key={category}
              sx={{
                px: 0.75,
                borderRadius: 1,
                fontSize: '0.75rem',
                lineHeight: 1.6,
                bgcolor: CATEGORY_COLOURS[colour],
                color: 'rgba(0, 0, 0, 0.87)',
              }}
            >
              {nameOf(category)}
            </Box>
          ))}
        </Box>
      ) : null}
      {view.labels ? null : (
        <Typography variant="caption" component="p" sx={{ mt: 1, color: 'text.secondary' }}>
          {LABELS_HIDDEN_TEXT}
        </Typography>
      )}
    </>
  );
});
