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

/** One row of a '?' overlay: the keys, and what they do. */
export type Shortcut = readonly [keys: string, what: string];

/** The '?' overlay listing a screen's keyboard shortcuts. */
export function ShortcutsDialog({
  open,
  onClose,
  shortcuts,
  disablePortal = false,
}: {
  open: boolean;
  onClose: () => void;
  shortcuts: readonly Shortcut[];
  /** Render inside the screen (the federated screen keeps focus handling within its box). */
  disablePortal?: boolean;
}) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} disablePortal={disablePortal}>
      <DialogTitle id={titleId}>Keyboard shortcuts</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableBody>
            {shortcuts.map(([keys, what]) => (
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
