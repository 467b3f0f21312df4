/**
 * Where the message's DOM meets message offsets (annotated-text.tsx): the attributes rendered
 * segments carry, and the maps between DOM points and offsets in the message text (labels never
 * count).
 */
import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import type { Span } from '@loopdesk/workbench/entities.ts';
import {
  messageOffsetAt,
  segmentPointAt,
  selectionSpan,
  type RenderedSegment,
  type SegmentPoint,
} from '@loopdesk/workbench/selection.ts';

/** A selection made in the message: offsets in message text, and where it is on screen. */
export interface MessageSelection {
  span: Span;
  /** The selection's bounding box in viewport coordinates, when the browser can tell. */
  rect: DOMRect | null;
}

/**
 * Rendered segments carry attributes that stay the same while other highlights come and go (the
 * start of a text piece; the span and category of a label's annotation), so that React leaves the
 * untouched ones alone; {@link segmentLookup} maps them back to segment indexes.
 */
export const TEXT_ATTRIBUTE = 'data-start';
export const LABEL_ATTRIBUTE = 'data-label';

/** The attribute value of a segment: its text start, or its annotation's span and category. */
export function segmentKeys(
  segments: readonly RenderedSegment[],
  entities: readonly AnnotationEntity[],
): string[] {
  const seen = new Set<string>();
  return segments.map((segment, index) => {
    if (segment.kind === 'text') {
      return String(segment.start);
    }
    const entity = entities[segment.entityIndex];
    const key = entity ? `${entity.start}-${entity.end}-${entity.category}` : `label-${index}`;
    // The job's own annotations may repeat one: keep the keys unique.
    const unique = seen.has(key) ? `${key}#${index}` : key;
    seen.add(unique);
    return unique;
  });
}

/** Segment index by the attribute value its element carries. */
export function segmentLookup(
  segments: readonly RenderedSegment[],
  keys: readonly string[],
): ReadonlyMap<string, number> {
  return new Map(
    segments.map((segment, index) => [
      `${segment.kind === 'text' ? TEXT_ATTRIBUTE : LABEL_ATTRIBUTE}=${keys[index] ?? ''}`,
      index,
    ]),
  );
}

/** The rendered segments with their element attributes, ready to map DOM points. */
export interface SegmentMap {
  readonly segments: readonly RenderedSegment[];
  readonly keys: readonly string[];
  readonly lookup: ReadonlyMap<string, number>;
}

function segmentIndexOf(map: SegmentMap, element: HTMLElement): number | null {
  for (const attribute of [TEXT_ATTRIBUTE, LABEL_ATTRIBUTE]) {
    const value = element.getAttribute(attribute);
    if (value !== null) {
      return map.lookup.get(`${attribute}=${value}`) ?? null;
    }
  }
  return null;
}

function segmentElement(root: HTMLElement, node: Node): HTMLElement | null {
  let current: Node | null = node;
  while (current && current !== root) {
    if (
      current instanceof HTMLElement &&
      (current.hasAttribute(TEXT_ATTRIBUTE) || current.hasAttribute(LABEL_ATTRIBUTE))
    ) {
      return current;
    }
    current = current.parentNode;
  }
  return null;
}

/**
 * Maps a DOM point (a Range end) to a rendered segment. A point outside the message maps to its
 * start or end, whichever side it lies on.
 */
export function segmentPointOf(
  root: HTMLElement,
  map: SegmentMap,
  node: Node,
  offset: number,
): SegmentPoint | null {
  const { segments } = map;
  if (segments.length === 0) {
    return null;
  }
  const last: SegmentPoint = {
    segmentIndex: segments.length - 1,
    offsetInSegment: Number.MAX_SAFE_INTEGER,
  };
  const first: SegmentPoint = { segmentIndex: 0, offsetInSegment: 0 };
  if (node === root) {
    const child = root.childNodes[offset];
    const element = child ? segmentElement(root, child) : null;
    const index = element ? segmentIndexOf(map, element) : null;
    return index === null ? last : { segmentIndex: index, offsetInSegment: 0 };
  }
  if (!root.contains(node)) {
    const before = (root.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
    return before ? first : last;
  }
  const element = segmentElement(root, node);
  const segmentIndex = element ? segmentIndexOf(map, element) : null;
  if (!element || segmentIndex === null) {
    return null;
  }
  // A point on the segment element itself counts child nodes: 0 is its start, anything else its end.
  const offsetInSegment = node === element ? (offset === 0 ? 0 : Number.MAX_SAFE_INTEGER) : offset;
  return { segmentIndex, offsetInSegment };
}

/** The current document selection as message offsets, or null when none lies in the message. */
export function readMessageSelection(root: HTMLElement, map: SegmentMap): MessageSelection | null {
  const selection = root.ownerDocument.getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) {
    return null;
  }
  const range = selection.getRangeAt(0);
  if (!range.intersectsNode(root)) {
    return null;
  }
  const anchor = segmentPointOf(root, map, range.startContainer, range.startOffset);
  const focus = segmentPointOf(root, map, range.endContainer, range.endOffset);
  if (!anchor || !focus) {
    return null;
  }
  const span = selectionSpan(map.segments, anchor, focus);
  if (span.start === span.end) {
    return null;
  }
  // jsdom has no layout: its ranges lack getBoundingClientRect.
  const rect =
    typeof range.getBoundingClientRect === 'function' ? range.getBoundingClientRect() : null;
  return { span, rect };
}

/** The DOM node and offset of a message offset (the text node inside its segment). */
export function domPointOf(
  root: HTMLElement,
  map: SegmentMap,
  offset: number,
): { node: Node; offset: number } | null {
  const point = segmentPointAt(map.segments, offset);
  const element = root.querySelector(`[${TEXT_ATTRIBUTE}="${map.keys[point.segmentIndex] ?? ''}"]`);
  const node = element?.firstChild;
  return node
    ? { node, offset: Math.min(point.offsetInSegment, node.textContent?.length ?? 0) }
    : null;
}

/** The message offsets of the document selection's anchor and focus, when it lies in the message. */
export function selectionEnds(
  root: HTMLElement,
  map: SegmentMap,
): { anchor: number; focus: number } | null {
  const selection = root.ownerDocument.getSelection();
  const { anchorNode, focusNode } = selection ?? {};
  if (
    !selection ||
    !anchorNode ||
    !focusNode ||
    !root.contains(anchorNode) ||
    !root.contains(focusNode)
  ) {
    return null;
  }
  const anchor = segmentPointOf(root, map, anchorNode, selection.anchorOffset);
  const focus = segmentPointOf(root, map, focusNode, selection.focusOffset);
  return anchor && focus
    ? {
        anchor: messageOffsetAt(map.segments, anchor),
        focus: messageOffsetAt(map.segments, focus),
      }
    : null;
}
