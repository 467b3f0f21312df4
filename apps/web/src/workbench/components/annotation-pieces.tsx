import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { memo } from 'react';
import { LABEL_ATTRIBUTE, TEXT_ATTRIBUTE } from './message-dom.ts';

// The parts of an annotated message: its text pieces and the label after each highlight.

/** A piece of message text, highlighted when annotations cover it (a stronger colour for nested). */
export const TextPiece = memo(function TextPiece({
  start,
  text,
  depth,
  colour,
}: {
  start: string;
  text: string;
  depth: number;
  /** The category colour of the innermost annotation covering it. */
  colour: number | undefined;
}) {
  const attributes = { [TEXT_ATTRIBUTE]: start };
  if (depth === 0) {
    return <span {...attributes}>{text}</span>;
  }
  return (
    <mark
      {...attributes}
      {...(depth > 1 ? { 'data-deep': '' } : {})}
      {...(colour === undefined ? {} : { 'data-colour': colour })}
    >
      {text}
    </mark>
  );
});

/** The delete buttons of the highlights, in message order. */
export const CHIP_BUTTONS = '.annotation-chip button';
/** Which highlight a delete button belongs to (its chip's key: span and category). */
export const chipKeyOf = (button: Element): string =>
  button.closest('.annotation-chip')?.getAttribute(LABEL_ATTRIBUTE) ?? '';

/** The label after a highlight, and its delete button. Never part of the message text. */
export const Chip = memo(function Chip({
  labelKey,
  label,
  entity,
  colour,
  onDelete,
}: {
  labelKey: string;
  label: string;
  entity: AnnotationEntity | undefined;
  colour: number | undefined;
  onDelete: ((entity: AnnotationEntity) => void) | undefined;
}) {
  return (
    <span
      className="annotation-chip"
      contentEditable={false}
      {...{ [LABEL_ATTRIBUTE]: labelKey }}
      {...(colour === undefined ? {} : { 'data-colour': colour })}
    >
      {label}
      {onDelete && entity ? (
        <button
          type="button"
          aria-label={`Delete ${label}: ${entity.extract}`}
          onClick={() => onDelete(entity)}
          onMouseUp={(event) => event.stopPropagation()}
        >
          <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
            <path d="M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z" />
          </svg>
        </button>
      ) : null}
    </span>
  );
});
