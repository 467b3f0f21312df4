import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

/** REJECT DOCUMENT's dialog: a required Comment (spec 2 §2, §5). */
export function RejectDialog({
  open,
  onCancel,
  onReject,
}: {
  open: boolean;
  onCancel: () => void;
  onReject: (comment: string) => void;
}) {
  const [comment, setComment] = useState('');
  const [touched, setTouched] = useState(false);
  const missing = comment.trim() === '';
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="reject-title">
      <DialogTitle id="reject-title">Reject document</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          label="Comment"
          required
          multiline
          maxRows={8}
          fullWidth
          sx={{ mt: 1, minWidth: 360 }}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          error={touched && missing}
          helperText={touched && missing ? 'A rejection comment is required.' : ' '}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          color="error"
          variant="contained"
          onClick={() => {
            setTouched(true);
            if (!missing) {
              onReject(comment.trim());
            }
          }}
        >
          Reject
        </Button>
      </DialogActions>
    </Dialog>
  );
}
