import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { contains, overlaps, type Span } from './entities.ts';

/**
 * One piece of the rendered message. `text` segments hold message text (inside zero or more
 * annotation chips); `label` segments hold a chip's label, shown right after the annotated text
 * and never part of the message.
 */
export type RenderedSegment =
  | { kind: 'text'; text: string; start: number; entityIndexes: number[] }
  | { kind: 'label'; text: string; at: number; entityIndex: number };

/** A DOM-like selection end point: the segment and the character offset inside it. */
export interface SegmentPoint {
  segmentIndex: number;
  offsetInSegment: number;
}

/** A selection that may become an annotation: offsets in message text and the selected text. */
export interface TextSelection extends Span {
  extract: string;
}

/** Why a selection was ignored. */
export type IgnoredSelection = 'empty' | 'ends-with-newline' | 'partial-overlap';

/** Outcome of {@link normaliseSelection}. */
export type SelectionResult =
  { ok: true; selection: TextSelection } | { ok: false; reason: IgnoredSelection };

/**
 * Splits a message into text segments at every annotation boundary and puts each annotation's
 * label (its category unless `labelOf` says otherwise) right after its last text segment.
 */
export function renderSegments(
  text: string,
  entities: readonly Pick<AnnotationEntity, 'start' | 'end' | 'category'>[],
  labelOf: (entity: Pick<AnnotationEntity, 'start' | 'end' | 'category'>) => string = (e) =>
    e.category,
): RenderedSegment[] {
  const clamp = (n: number) => Math.min(Math.max(n, 0), text.length);
  const boundaries = [
    ...new Set([0, text.length, ...entities.flatMap((e) => [clamp(e.start), clamp(e.end)])]),
  ].sort((a, b) => a - b);
  // Labels by the boundary where their chip closes: inner chips before the chips enclosing them.
  const closingAt = new Map<number, number[]>();
  entities.forEach((entity, index) => {
    const end = clamp(entity.end);
    if (clamp(entity.start) < end) {
      closingAt.set(end, [...(closingAt.get(end) ?? []), index]);
    }
  });
  for (const indexes of closingAt.values()) {
    indexes.sort((a, b) => (entities[b]?.start ?? 0) - (entities[a]?.start ?? 0) || a - b);
  }
  // A sweep over the pieces (one pass, not pieces × annotations): the annotations covering a
  // piece are those started at or before it and not yet ended.
  const byStart = entities
    .map((_, index) => index)
    .sort((a, b) => (entities[a]?.start ?? 0) - (entities[b]?.start ?? 0));
  let next = 0;
  let active: number[] = [];
  const segments: RenderedSegment[] = [];
  for (let i = 0; i + 1 < boundaries.length; i += 1) {
    const start = boundaries[i] ?? 0;
    const end = boundaries[i + 1] ?? start;
    while (next < byStart.length && (entities[byStart[next] ?? 0]?.start ?? 0) <= start) {
      active.push(byStart[next] ?? 0);
      next += 1;
    }
    active = active.filter((index) => (entities[index]?.end ?? 0) >= end);
    segments.push({
      kind: 'text',
      text: text.slice(start, end),
      start,
      entityIndexes: [...active].sort((a, b) => a - b),
    });
    for (const index of closingAt.get(end) ?? []) {
      const entity = entities[index];
      if (entity) {
        segments.push({ kind: 'label', text: labelOf(entity), at: end, entityIndex: index });
      }
    }
  }
  return segments;
}

/**
 * Maps a DOM-like point (segment index, offset in that segment) to a message offset; a point
 * inside a label maps to the end of the annotated text, so label text is never counted.
 */
export function messageOffsetAt(segments: readonly RenderedSegment[], point: SegmentPoint): number {
  const segment = segments[point.segmentIndex];
  if (segment === undefined) {
    throw new RangeError(`No segment ${point.segmentIndex}`);
  }
  if (segment.kind === 'label') {
    return segment.at;
  }
  return segment.start + Math.min(Math.max(point.offsetInSegment, 0), segment.text.length);
}

/** Turns a DOM-like anchor and focus (in either order) into message offsets. */
export function selectionSpan(
  segments: readonly RenderedSegment[],
  anchor: SegmentPoint,
  focus: SegmentPoint,
): Span {
  const a = messageOffsetAt(segments, anchor);
  const b = messageOffsetAt(segments, focus);
  return { start: Math.min(a, b), end: Math.max(a, b) };
}

/**
 * Whether a selection may sit beside an existing annotation: no shared characters, or one of the
 * two encloses the other (the selection fully contains it or lies fully inside it).
 */
export function isCompatibleWith(selection: Span, annotation: Span): boolean {
  return (
    !overlaps(selection, annotation) ||
    contains(selection, annotation) ||
    contains(annotation, selection)
  );
}

/**
 * Applies spec 1 §5 to a raw selection: it must be non-empty and not end in a newline, its
 * leading spaces are trimmed (offset adjusted), and it must not partly overlap an annotation.
 */
export function normaliseSelection(
  text: string,
  raw: Span,
  existing: readonly Span[],
): SelectionResult {
  const clamp = (n: number) => Math.min(Math.max(n, 0), text.length);
  let start = clamp(Math.min(raw.start, raw.end));
  const end = clamp(Math.max(raw.start, raw.end));
  const selected = text.slice(start, end);
  if (selected.length === 0) {
    return { ok: false, reason: 'empty' };
  }
  if (selected.endsWith('\n') || selected.endsWith('\r')) {
    return { ok: false, reason: 'ends-with-newline' };
  }
  start += selected.length - selected.replace(/^ +/, '').length;
  if (start === end) {
    return { ok: false, reason: 'empty' };
  }
  const selection = { start, end, extract: text.slice(start, end) };
  if (!existing.every((annotation) => isCompatibleWith(selection, annotation))) {
    return { ok: false, reason: 'partial-overlap' };
  }
  return { ok: true, selection };
}

/** Makes the entity a menu choice adds for a selection. */
export function entityFromSelection(selection: TextSelection, category: string): AnnotationEntity {
  return {
    start: selection.start,
    end: selection.end,
    extract: selection.extract,
    category,
  };
}

/** Keys that move the keyboard caret in the message (with Shift they extend the selection). */
export type CaretKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

const CARET_KEYS: readonly string[] = [
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
];

/** Whether a key moves the keyboard caret. */
export function isCaretKey(key: string): key is CaretKey {
  return CARET_KEYS.includes(key);
}

const isWordChar = (char: string | undefined) =>
  char !== undefined && /[\p{L}\p{N}'’_-]/u.test(char);

/** Start of the line holding `offset` (lines end at '\n'). */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** End of the line holding `offset`, before its '\n'. */
function lineEnd(text: string, offset: number): number {
  const at = text.indexOf('\n', offset);
  return at < 0 ? text.length : at;
}

/**
 * Where the keyboard caret goes (spec 1 §4 keyboard annotation, issue 4 "Shift+arrow"): Left and
 * Right move a character, or a word with `byWord` (Ctrl/Alt), the way text editors do; Home and
 * End go to the line's start and end (the message's with `byWord`); Up and Down go to the same
 * column of the line before or after (lines end at '\n').
 */
export function moveCaret(text: string, offset: number, key: CaretKey, byWord = false): number {
  const at = Math.min(Math.max(offset, 0), text.length);
  switch (key) {
    case 'ArrowLeft': {
      if (!byWord) {
        return Math.max(at - 1, 0);
      }
      let i = at;
      while (i > 0 && !isWordChar(text[i - 1])) {
        i -= 1;
      }
      while (i > 0 && isWordChar(text[i - 1])) {
        i -= 1;
      }
      return i;
    }
    case 'ArrowRight': {
      if (!byWord) {
        return Math.min(at + 1, text.length);
      }
      let i = at;
      while (i < text.length && !isWordChar(text[i])) {
        i += 1;
      }
      while (i < text.length && isWordChar(text[i])) {
        i += 1;
      }
      return i;
    }
    case 'Home':
      return byWord ? 0 : lineStart(text, at);
    case 'End':
      return byWord ? text.length : lineEnd(text, at);
    case 'ArrowUp': {
      const start = lineStart(text, at);
      if (start === 0) {
        return 0;
      }
      const previous = lineStart(text, start - 1);
      return Math.min(previous + (at - start), start - 1);
    }
    case 'ArrowDown': {
      const end = lineEnd(text, at);
      if (end === text.length) {
        return text.length;
      }
      const next = end + 1;
      return Math.min(next + (at - lineStart(text, at)), lineEnd(text, next));
    }
  }
}

/**
 * The DOM-like point of a message offset, the inverse of {@link messageOffsetAt}: the text segment
 * that holds it (at a boundary, the segment that starts there, so a caret never lands in a label).
 */
export function segmentPointAt(segments: readonly RenderedSegment[], offset: number): SegmentPoint {
  let last: SegmentPoint = { segmentIndex: 0, offsetInSegment: 0 };
  for (const [segmentIndex, segment] of segments.entries()) {
    if (segment.kind !== 'text') {
      continue;
    }
    const end = segment.start + segment.text.length;
    if (offset >= segment.start && offset < end) {
      return { segmentIndex, offsetInSegment: offset - segment.start };
    }
    last = { segmentIndex, offsetInSegment: segment.text.length };
  }
  return last;
}
