import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import type { Announcement } from '../api/queue-push.ts';

/** The review before sending (spec 3 §2): the announcement as patients will see it. */
export function ReviewDialog({
  announcement,
  busy,
  onSend,
  onCancel,
}: {
  announcement: Announcement | null;
  busy: boolean;
  onSend: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open={announcement !== null} onClose={onCancel} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Review push notification</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          This goes to the devices of every patient. Check it before sending.
        </DialogContentText>
        <Paper variant="outlined" sx={{ p: 2 }} aria-label="Preview">
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 'bold' }}>
            {announcement?.title}
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{announcement?.content}</Typography>
        </Paper>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={onSend} disabled={busy}>
          Send to every patient
        </Button>
      </DialogActions>
    </Dialog>
  );
}
