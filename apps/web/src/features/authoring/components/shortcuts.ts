import type { Shortcut } from '../../../components/shortcuts-dialog.tsx';

/** The keys of the Annotation Task screen's text, as `?` lists them (issue 13 item 3). */
export const DOCUMENT_SHORTCUTS: readonly Shortcut[] = [
  ['Arrow keys, Home, End', 'Move the caret in the text (Ctrl: by word, or to either end)'],
  ['Shift + arrow keys', 'Select text; the category menu opens when you let go of Shift'],
  ['Enter', 'Open the category menu for the selection, or edit the entity at the caret'],
  ['1 – 9', 'Pick the category with that number in the menu'],
  ['Space', 'Next page of the category menu (16 categories on two pages)'],
  ['N / P', 'Go to the next / previous entity'],
  ['Delete or Backspace', 'Delete the entity at the caret (asks first)'],
  ['Escape', 'Close the menu or the edit form; clear the selection'],
  ['?', 'Show this list'],
];
