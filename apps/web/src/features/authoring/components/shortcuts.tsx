import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useId } from 'react';

/** The keys of the Annotation Task screen's text, as `?` lists them (issue 13 item 3). */
export const DOCUMENT_SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
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

/** The '?' overlay of the document's keys. */
export function DocumentShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Keyboard shortcuts</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableBody>
            {DOCUMENT_SHORTCUTS.map(([keys, what]) => (
              <TableRow key={keys}>
                <TableCell component="th" scope="row">
                  <Box component="kbd" sx={{ fontFamily: 'monospace' }}>
                    {keys}
                  </Box>
                </TableCell>
                <TableCell>{what}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
