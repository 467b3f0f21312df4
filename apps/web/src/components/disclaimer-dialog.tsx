import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';

interface DisclaimerDialogProps {
  open: boolean;
  /** Terms of use address; empty when not configured. */
  termsUrl: string;
  onAgree: () => void;
}

/**
 * The disclaimer (spec 1 §2 Shell). It cannot be closed by clicking outside or pressing Escape:
 * the only way out is Agree.
 */
export function DisclaimerDialog({ open, termsUrl, onAgree }: DisclaimerDialogProps) {
  return (
    <Dialog
      open={open}
      // Backdrop clicks and Escape both arrive here; neither may close the dialog.
      onClose={() => undefined}
      aria-labelledby="disclaimer-title"
      aria-describedby="disclaimer-text"
      maxWidth="sm"
    >
      <DialogTitle id="disclaimer-title">Disclaimer</DialogTitle>
      <DialogContent>
        <DialogContentText id="disclaimer-text">
          Loopdesk shows patient data. Use it only for the authorised clinical work you have been
          assigned, and do not copy or share patient data outside the portal.
        </DialogContentText>
        <DialogContentText sx={{ mt: 2 }}>
          By continuing you accept the{' '}
          {termsUrl ? (
            <Link href={termsUrl} target="_blank" rel="noopener noreferrer">
              Terms of Use
            </Link>
          ) : (
            'Terms of Use (link not configured)'
          )}
          .
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onAgree} autoFocus>
          Agree
        </Button>
      </DialogActions>
    </Dialog>
  );
}
