import FiberNewOutlinedIcon from '@mui/icons-material/FiberNewOutlined';
import Chip, { type ChipProps } from '@mui/material/Chip';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';

export const NEW_TERM_TITLE = 'Add a new term?';
export const newTermMessage = (term: string, list: string) =>
  `“${term}” is not a known concept. Adding it to ${list} publishes it to the knowledge base as a new term.`;

/**
 * A chip of a multi-select (issue 20 point 20): a known concept looks as usual; a value that is
 * not one (free text) has a dashed outline, a "new" mark and says so to screen readers.
 */
export function TermChip({
  label,
  known,
  ...props
}: ChipProps & { label: string; known: boolean }) {
  if (known) {
    return <Chip {...props} label={label} />;
  }
  return (
    <Chip
      {...props}
      variant="outlined"
      color="warning"
      icon={<FiberNewOutlinedIcon aria-hidden />}
      label={label}
      aria-label={`${label} (new term)`}
      title="New term: not a known concept"
      sx={{ borderStyle: 'dashed', ...props.sx }}
    />
  );
}

/**
 * Asks once before free text enters a list as a new term (issue 20 point 20). `ask(term, add)`
 * opens the question; `add` runs only when the user confirms.
 */
export function useNewTermQuestion(list: string): {
  ask: (term: string, add: () => void) => void;
  dialog: ReactNode;
} {
  const [question, setQuestion] = useState<{ term: string; add: () => void } | null>(null);
  return {
    ask: (term, add) => setQuestion({ term, add }),
    dialog: (
      <ConfirmDialog
        open={question !== null}
        title={NEW_TERM_TITLE}
        message={question ? newTermMessage(question.term, list) : ''}
        confirmLabel="Add new term"
        onConfirm={() => {
          question?.add();
          setQuestion(null);
        }}
        onCancel={() => setQuestion(null)}
      />
    ),
  };
}

/**
 * The value of a free-solo multi-select after a change: typed text naming a known option (in any
 * case) becomes that option; other typed text is returned apart, as new terms to ask about.
 */
export function splitTyped<T>(
  next: readonly (T | string)[],
  options: readonly T[],
  nameOf: (item: T) => string,
): { items: T[]; newTerms: string[] } {
  const items: T[] = [];
  const newTerms: string[] = [];
  for (const entry of next) {
    if (typeof entry !== 'string') {
      items.push(entry);
      continue;
    }
    const term = entry.trim();
    if (!term) {
      continue;
    }
    const known = options.find((option) => nameOf(option).toLowerCase() === term.toLowerCase());
    if (known) {
      items.push(known);
    } else {
      newTerms.push(term);
    }
  }
  return { items, newTerms };
}

/** Drops later items with the name of an earlier one (any case). */
export function uniqueByName<T>(items: readonly T[], nameOf: (item: T) => string): T[] {
  return items.filter(
    (item, index) =>
      items.findIndex((other) => nameOf(other).toLowerCase() === nameOf(item).toLowerCase()) ===
      index,
  );
}
