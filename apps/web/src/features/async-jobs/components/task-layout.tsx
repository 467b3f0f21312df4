import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  DISCARD_NOTE_REQUIRED,
  type AsyncTask,
  type TaskParams,
} from '@loopdesk/contracts/async-jobs.ts';
import Alert from '@mui/material/Alert';
import { useContext, useId, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { TaskHeader } from '../../../components/task-header.tsx';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { useDiscardTask } from '../api/discard-task.ts';
import { useSubmitTask } from '../api/submit-task.ts';
import { DraftContext } from '../hooks/draft-store.ts';
import { ARE_YOU_SURE, DASHBOARD_PATH, STILL_PROCESSING } from '../utils/messages.ts';
import { discardedMessage, publishedMessage } from '../utils/outcomes.ts';
import type { CheckResult, TaskPlace } from '../utils/task-screens.ts';
import { LeaveGuard } from './task-draft.tsx';

/** What every task screen receives from the task route. */
export interface TaskScreenProps {
  task: AsyncTask;
  params: TaskParams;
  /** The task's pipeline, step and instruction, for the header (issue 20 point 18). */
  place?: TaskPlace | undefined;
}

/** The dashboard, told which step the user comes back from (its button takes the focus). */
export const backToDashboard = (params: TaskParams) =>
  [
    DASHBOARD_PATH,
    { state: { from: { pipelineId: params.pipelineId, step: params.step } } },
  ] as const;

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
  place,
  title,
  subtitle,
  build,
  ready = true,
  children,
}: TaskLayoutProps) {
  const toast = useToast();
  const draft = useContext(DraftContext);
  const [restored] = useState(() => Object.keys(draft?.initial ?? {}).length > 0);
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
    draft?.finish();
    submit.mutate(
      { params, data },
      {
        onSuccess: (result) => {
          toast.success(publishedMessage(title, task, place, result));
          void navigate(...backToDashboard(params));
        },
        onError: (error) => {
          draft?.resume();
          toast.error(errorMessage(error));
        },
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
    draft?.finish();
    discard.mutate(
      { params, reason: note.trim() },
      {
        onSuccess: () => {
          toast.success(discardedMessage(title, task));
          void navigate(...backToDashboard(params));
        },
        onError: (error) => {
          draft?.resume();
          toast.error(errorMessage(error));
        },
        onSettled: () => {
          busy.current = false;
        },
      },
    );
  };

  return (
    <Stack spacing={2} sx={{ p: 2, maxWidth: 960 }}>
      <TaskHeader
        back={{ to: DASHBOARD_PATH, label: 'Dashboard' }}
        trail={place ? [place.pipeline, place.step] : []}
        title={title}
        instruction={place?.instruction}
        subtitle={subtitle}
      />
      {restored ? (
        <Alert severity="info" variant="outlined">
          Your draft of this task is restored: carry on where you left off.
        </Alert>
      ) : null}
      <LeaveGuard />
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
