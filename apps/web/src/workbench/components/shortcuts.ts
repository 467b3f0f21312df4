import type { Shortcut } from '../../components/shortcuts-dialog.tsx';

/** The keys of the federated screen, as the overlay lists them. */
export const SHORTCUTS: readonly Shortcut[] = [
  ['Tab / Shift + Tab', 'Move between the message, its highlights and the buttons'],
  ['Arrow keys, Home, End', 'Move the caret in the message (Ctrl: by word, or to either end)'],
  ['Shift + arrow keys', 'Extend the text selection; the category menu opens when you let go'],
  [
    '1 – 9',
    'Pick the menu entry, option or answer with that number (rephrase, priority, Endorse / Deny / Unsure)',
  ],
  ['0', 'Colour the highlights by category, with a legend (again: one colour)'],
  ['` (backtick)', 'Colour only: hide the labels after the highlights (again: show them)'],
  ['Space', 'Next page of the menu'],
  ['Escape', 'Back one level in a submenu (Intents ›); at the top, close the menu'],
  ['Enter or Space on a button', 'Press it (Delete on a highlight, Exception, Submit …)'],
  [
    'Ctrl + Enter',
    'Submit (Next on the agenda step, Done on a manual RPA step); ignored in the first half second of a step and when held down',
  ],
  ['Ctrl + Z', 'Undo Clear or the deletion of a highlight'],
  ['?', 'Show this list'],
];
