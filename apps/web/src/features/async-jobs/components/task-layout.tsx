import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DISCARD_NOTE_REQUIRED,
  type AsyncTask,
  type TaskParams,
} from '@loopdesk/contracts/async-jobs.ts';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { useDiscardTask } from '../api/discard-task.ts';
import { useSubmitTask } from '../api/submit-task.ts';
import { ARE_YOU_SURE, DASHBOARD_PATH, STILL_PROCESSING } from '../utils/messages.ts';
import type { CheckResult } from '../utils/task-screens.ts';

/** What every task screen receives from the task route. */
export interface TaskScreenProps {
  task: AsyncTask;
  params: TaskParams;
}

export interface TaskLayoutProps extends TaskScreenProps {
  title: string;
  subtitle?: ReactNode;
  /** Builds and checks the submit body when Publish is pressed. */
  build: () => CheckResult;
  /** Publish stays disabled until the job is ready (spec 3 §4; default ready). */
  ready?: boolean;
  children: ReactNode;
}

/**
 * The frame of every task screen (spec 3 §2, §5): title, the screen's body, and Discard (a
 * dialog asking for a required note) and Publish (asks 'Are you sure?'). Either ends the task and
 * returns to the dashboard; a failure is shown as a toast and the screen stays.
 */
export function TaskLayout({
  task,
  params,
  title,
  subtitle,
  build,
  ready = true,
  children,
}: TaskLayoutProps) {
  const toast = useToast();
  const navigate = useNavigate();
  const submit = useSubmitTask();
  const discard = useDiscardTask();
  const noteId = useId();
  // A ref as well as the mutations' state: a second click in the same tick must see it.
  const busy = useRef(false);
  const [pending, setPending] = useState<{ data: unknown } | null>(null);
  const [discardOpen, setDiscardOpen] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>(undefined);

  const isBusy = () => {
    if (busy.current || submit.isPending || discard.isPending) {
      toast.error(STILL_PROCESSING);
      return true;
    }
    return false;
  };

  const onPublish = () => {
    if (isBusy()) {
      return;
    }
    const result = build();
    if (!result.ok) {
      toast.error(result.error);
      return;
    }
    setPending({ data: result.data });
  };

  const onConfirmPublish = () => {
    const data = pending?.data;
    setPending(null);
    if (isBusy()) {
      return;
    }
    busy.current = true;
    submit.mutate(
      { params, data },
      {
        onSuccess: () => void navigate(DASHBOARD_PATH),
        onError: (error) => toast.error(errorMessage(error)),
        onSettled: () => {
          busy.current = false;
        },
      },
    );
  };

  const onDiscard = () => {
    if (isBusy()) {
      return;
    }
    setNoteError(undefined);
    setDiscardOpen(true);
  };

  const onConfirmDiscard = () => {
    if (!note.trim()) {
      setNoteError(DISCARD_NOTE_REQUIRED);
      return;
    }
    if (isBusy()) {
      return;
    }
    setDiscardOpen(false);
    busy.current = true;
    discard.mutate(
      { params, reason: note.trim() },
      {
        onSuccess: () => void navigate(DASHBOARD_PATH),
        onError: (error) => toast.error(errorMessage(error)),
        onSettled: () => {
          busy.current = false;
        },
      },
    );
  };

  return (
    <Stack spacing={2} sx={{ p: 2, maxWidth: 960 }}>
      <div>
        <Typography variant="h5" component="h2">
          {title}
        </Typography>
        {subtitle ? (
          <Typography variant="subtitle1" color="text.secondary">
            {subtitle}
          </Typography>
        ) : null}
        <Typography variant="caption" color="text.secondary">
          {`Task ${task.id} · ${task.state}`}
        </Typography>
      </div>
      <Paper variant="outlined" sx={{ p: 2 }}>
        {children}
      </Paper>
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
        <Button color="error" onClick={onDiscard}>
          Discard
        </Button>
        <Button variant="contained" disabled={!ready} onClick={onPublish}>
          Publish
        </Button>
      </Stack>

      <ConfirmDialog
        open={pending !== null}
        title="Publish"
        message={ARE_YOU_SURE}
        confirmLabel="Publish"
        onConfirm={onConfirmPublish}
        onCancel={() => setPending(null)}
      />
      <Dialog
        open={discardOpen}
        onClose={() => setDiscardOpen(false)}
        aria-labelledby={noteId}
        fullWidth
        maxWidth="sm"
      >
        <DialogTitle id={noteId}>Discard this job</DialogTitle>
        <DialogContent>
          <TextField
            label="Note"
            multiline
            minRows={2}
            maxRows={8}
            fullWidth
            required
            autoFocus
            sx={{ mt: 1 }}
            value={note}
            onChange={(event) => {
              setNote(event.target.value);
              setNoteError(undefined);
            }}
            error={Boolean(noteError)}
            helperText={noteError}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDiscardOpen(false)}>Cancel</Button>
          {/* The dark theme's error red gives white text 3.7:1; its dark shade 5:1. */}
          <Button
            variant="contained"
            color="error"
            sx={{ bgcolor: 'error.dark' }}
            onClick={onConfirmDiscard}
          >
            Discard
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
