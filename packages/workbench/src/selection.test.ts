import { describe, expect, it } from 'vitest';
import {
  entityFromSelection,
  isCaretKey,
  isCompatibleWith,
  messageOffsetAt,
  moveCaret,
  normaliseSelection,
  renderSegments,
  segmentPointAt,
  selectionSpan,
  type CaretKey,
} from './selection.ts';

const text = 'I have a headache\nsince Monday';
// 'have' is 2..6, 'a' is 7, 'headache' is 9..17, '\n' is 17, 'since' is 18..23

describe('a selection becomes offsets (spec 1 §5)', () => {
  it.each([
    [
      'a plain word keeps its offsets',
      { start: 9, end: 17 },
      { start: 9, end: 17, extract: 'headache' },
    ],
    [
      'a backwards selection is put in order',
      { start: 17, end: 9 },
      { start: 9, end: 17, extract: 'headache' },
    ],
    [
      'one leading space is trimmed and the start moves',
      { start: 8, end: 17 },
      { start: 9, end: 17, extract: 'headache' },
    ],
    [
      'several leading spaces are trimmed',
      { start: 1, end: 6 },
      { start: 2, end: 6, extract: 'have' },
    ],
    [
      'a trailing space is kept (only leading spaces are trimmed)',
      { start: 2, end: 7 },
      { start: 2, end: 7, extract: 'have ' },
    ],
    [
      'a selection across a newline not ending in one counts',
      { start: 9, end: 23 },
      { start: 9, end: 23, extract: 'headache\nsince' },
    ],
    [
      'a selection past the end is clamped to the text',
      { start: 24, end: 99 },
      { start: 24, end: 30, extract: 'Monday' },
    ],
  ])('%s', (_name, raw, expected) => {
    expect(normaliseSelection(text, raw, [])).toEqual({ ok: true, selection: expected });
  });

  it.each([
    ['an empty selection', { start: 5, end: 5 }, 'empty'],
    ['a selection of spaces only', { start: 6, end: 7 }, 'empty'],
    ['a selection ending in a newline', { start: 9, end: 18 }, 'ends-with-newline'],
    ['a selection that is only a newline', { start: 17, end: 18 }, 'ends-with-newline'],
    [
      'a selection ending in a carriage return',
      { start: 0, end: 2 },
      'ends-with-newline',
      'I\rhave',
    ],
  ])('%s is ignored', (_name, raw, reason, message = text) => {
    expect(normaliseSelection(message, raw, [])).toEqual({ ok: false, reason });
  });
});

describe('a selection partly overlapping an annotation without enclosing it is ignored', () => {
  const headache = { start: 9, end: 17 };
  it.each([
    ['fully inside the annotation', { start: 9, end: 13 }, true],
    ['exactly the annotation span', { start: 9, end: 17 }, true],
    ['fully containing the annotation', { start: 7, end: 17 }, true],
    ['touching the annotation end', { start: 17, end: 20 }, true],
    ['touching the annotation start', { start: 2, end: 9 }, true],
    ['apart from the annotation', { start: 0, end: 1 }, true],
    ['crossing the annotation start', { start: 7, end: 12 }, false],
    ['crossing the annotation end', { start: 12, end: 23 }, false],
  ])('a selection %s: accepted=%s', (_name, raw, accepted) => {
    expect(isCompatibleWith(raw, headache)).toBe(accepted);
    expect(normaliseSelection(text, raw, [headache]).ok).toBe(accepted);
  });

  it('the overlap is judged after leading spaces are trimmed', () => {
    // The annotation 'have ' ends in a space; ' a' starts on that space, so only trimming
    // takes it out of the annotation.
    const have = { start: 2, end: 7 };
    expect(normaliseSelection(text, { start: 6, end: 8 }, [have])).toEqual({
      ok: true,
      selection: { start: 7, end: 8, extract: 'a' },
    });
  });
});

describe('offsets count message text only, never label text', () => {
  const message = 'my head hurts';
  const entities = [
    { start: 3, end: 7, category: 'sx' },
    { start: 3, end: 13, category: 'patient_description' },
  ];
  const segments = renderSegments(message, entities);

  it('renders text pieces with the chips covering them and each label after its chip', () => {
    expect(segments).toEqual([
      { kind: 'text', text: 'my ', start: 0, entityIndexes: [] },
      { kind: 'text', text: 'head', start: 3, entityIndexes: [0, 1] },
      { kind: 'label', text: 'sx', at: 7, entityIndex: 0 },
      { kind: 'text', text: ' hurts', start: 7, entityIndexes: [1] },
      { kind: 'label', text: 'patient_description', at: 13, entityIndex: 1 },
    ]);
  });

  it.each([
    ['start of plain text', 0, 0, 0],
    ['inside plain text', 0, 2, 2],
    ['inside a chip', 1, 2, 5],
    ['end of a chip', 1, 4, 7],
    ['inside a label: the end of its chip', 2, 1, 7],
    ['after a label', 3, 1, 8],
    ['inside the last label', 4, 10, 13],
    ['an offset past a segment is clamped to it', 0, 99, 3],
  ])('a point %s maps to message offset', (_name, segmentIndex, offsetInSegment, expected) => {
    expect(messageOffsetAt(segments, { segmentIndex, offsetInSegment })).toBe(expected);
  });

  it('a point on a missing segment is a programming error', () => {
    expect(() => messageOffsetAt(segments, { segmentIndex: 9, offsetInSegment: 0 })).toThrow(
      RangeError,
    );
  });

  it('a selection dragged backwards over a label gives message offsets without the label', () => {
    const span = selectionSpan(
      segments,
      { segmentIndex: 3, offsetInSegment: 6 },
      { segmentIndex: 0, offsetInSegment: 0 },
    );
    expect(span).toEqual({ start: 0, end: 13 });
    expect(message.slice(span.start, span.end)).toBe('my head hurts');
  });

  it('labels can be worded by the caller and a message without annotations is one segment', () => {
    expect(renderSegments('hi', [])).toEqual([
      { kind: 'text', text: 'hi', start: 0, entityIndexes: [] },
    ]);
    expect(
      renderSegments('hi', [{ start: 0, end: 2, category: 'sx' }], () => 'Symptom')[1],
    ).toEqual({ kind: 'label', text: 'Symptom', at: 2, entityIndex: 0 });
  });
});

describe('a menu choice turns a selection into an entity', () => {
  it('keeps the offsets and extract and takes the category', () => {
    expect(entityFromSelection({ start: 9, end: 17, extract: 'headache' }, 'sx')).toEqual({
      start: 9,
      end: 17,
      extract: 'headache',
      category: 'sx',
    });
  });
});

describe('the keyboard caret: arrows move it, Shift+arrows extend the selection', () => {
  const text = 'My head hurts.\nSince Monday, badly';
  it.each<[string, number, CaretKey, boolean, number]>([
    ['Right moves one character', 0, 'ArrowRight', false, 1],
    ['Left moves one character', 3, 'ArrowLeft', false, 2],
    ['Left stops at the start', 0, 'ArrowLeft', false, 0],
    ['Right stops at the end', text.length, 'ArrowRight', false, text.length],
    ['Ctrl+Right goes to the end of the word', 3, 'ArrowRight', true, 7],
    ['Ctrl+Right skips spaces and punctuation first', 13, 'ArrowRight', true, 20],
    ['Ctrl+Left goes to the start of the word', 6, 'ArrowLeft', true, 3],
    ['Ctrl+Left from a word start goes to the previous word', 8, 'ArrowLeft', true, 3],
    ['Home goes to the start of the line', 20, 'Home', false, 15],
    ['End goes to the end of the line, before its newline', 2, 'End', false, 14],
    ['Ctrl+End goes to the end of the message', 2, 'End', true, text.length],
    ['Ctrl+Home goes to the start of the message', 20, 'Home', true, 0],
    ['Down keeps the column on the next line', 3, 'ArrowDown', false, 18],
    ['Up keeps the column on the previous line', 18, 'ArrowUp', false, 3],
    ['Up on the first line goes to the start', 5, 'ArrowUp', false, 0],
    ['Down on the last line goes to the end', 20, 'ArrowDown', false, text.length],
  ])('%s', (_name, from, key, byWord, to) => {
    expect(moveCaret(text, from, key, byWord)).toBe(to);
  });

  it('knows which keys move the caret', () => {
    expect(['ArrowLeft', 'End', 'Home'].every(isCaretKey)).toBe(true);
    expect(isCaretKey('Shift')).toBe(false);
    expect(isCaretKey('1')).toBe(false);
  });

  it('maps a message offset to the text segment holding it, never into a label', () => {
    const segments = renderSegments('I have a headache', [{ start: 9, end: 17, category: 'sx' }]);
    // Segments: 'I have a ' (0), 'headache' (1), label 'sx' (2).
    expect(segmentPointAt(segments, 0)).toEqual({ segmentIndex: 0, offsetInSegment: 0 });
    expect(segmentPointAt(segments, 9)).toEqual({ segmentIndex: 1, offsetInSegment: 0 });
    expect(segmentPointAt(segments, 12)).toEqual({ segmentIndex: 1, offsetInSegment: 3 });
    expect(segmentPointAt(segments, 17)).toEqual({ segmentIndex: 1, offsetInSegment: 8 });
    for (const offset of [0, 5, 9, 12, 17]) {
      expect(messageOffsetAt(segments, segmentPointAt(segments, offset))).toBe(offset);
    }
  });
});
