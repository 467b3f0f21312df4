import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import {
  PUSH_CONTENT_MAX_CHARS,
  PUSH_MESSAGES,
  PUSH_MIN_CHARS,
  PUSH_TITLE_MAX_CHARS,
} from '@loopdesk/contracts/notifications.ts';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useBroadcast, useSendTest, type QueueAnswer } from '../api/queue-push.ts';
import { ReviewDialog } from '../components/review-dialog.tsx';

/** A field's error: under the minimum once something is typed (spec 3 §5), or over the maximum. */
export function lengthError(text: string, max: number): string | null {
  const length = text.trim().length;
  if (length > 0 && length < PUSH_MIN_CHARS) {
    return `At least ${PUSH_MIN_CHARS} characters (${length} so far).`;
  }
  return length > max ? `At most ${max} characters.` : null;
}

const valid = (text: string, max: number) => {
  const length = text.trim().length;
  return length >= PUSH_MIN_CHARS && length <= max;
};

/** /communication/push (spec 3 §2 Push broadcast, §5, §7 Push, §8). */
export function PushBroadcastRoute() {
  usePageTitle('Push Broadcast');
  const toast = useToast();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [patient, setPatient] = useState('');
  const [reviewing, setReviewing] = useState(false);
  const broadcast = useBroadcast();
  const test = useSendTest();
  const ready = valid(title, PUSH_TITLE_MAX_CHARS) && valid(content, PUSH_CONTENT_MAX_CHARS);
  const announcement = { title: title.trim(), content: content.trim() };

  const outcome = (answer: QueueAnswer) => {
    if (answer.status === 202) {
      toast.success(PUSH_MESSAGES.queued);
      return true;
    }
    toast.error(PUSH_MESSAGES.unable);
    return false;
  };
  const failed = (error: unknown) =>
    toast.error(PUSH_MESSAGES.error.replace('{error}', errorMessage(error)));

  const send = () => {
    broadcast.mutate(announcement, {
      onSuccess: (answer) => {
        setReviewing(false);
        if (outcome(answer)) {
          setTitle('');
          setContent('');
        }
      },
      onError: (error) => {
        setReviewing(false);
        failed(error);
      },
    });
  };

  const sendTest = () => {
    test.mutate(
      { consumerId: patient.trim(), announcement },
      { onSuccess: outcome, onError: failed },
    );
  };

  const titleError = lengthError(title, PUSH_TITLE_MAX_CHARS);
  const contentError = lengthError(content, PUSH_CONTENT_MAX_CHARS);
  return (
    <Paper component="section" aria-label="Push broadcast" sx={{ p: 3, maxWidth: 720 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        Announcement to every patient
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          label="Title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          error={titleError !== null}
          helperText={titleError ?? `At least ${PUSH_MIN_CHARS} characters.`}
          slotProps={{ htmlInput: { maxLength: PUSH_TITLE_MAX_CHARS + 20 } }}
        />
        <TextField
          label="Content"
          multiline
          minRows={3}
          maxRows={8}
          value={content}
          onChange={(event) => setContent(event.target.value)}
          error={contentError !== null}
          helperText={contentError ?? `At least ${PUSH_MIN_CHARS} characters.`}
        />
        <Box>
          <Button variant="contained" disabled={!ready} onClick={() => setReviewing(true)}>
            Send
          </Button>
        </Box>
        <Divider />
        <Typography variant="subtitle2" component="h3">
          Try it on one patient first
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
          <TextField
            label="Patient id"
            size="small"
            value={patient}
            onChange={(event) => setPatient(event.target.value)}
            helperText="The patient's id, as the assistant registered it."
          />
          <Button
            variant="outlined"
            disabled={!ready || patient.trim() === '' || test.isPending}
            onClick={sendTest}
          >
            Send test
          </Button>
        </Box>
      </Box>
      <ReviewDialog
        announcement={reviewing ? announcement : null}
        busy={broadcast.isPending}
        onSend={send}
        onCancel={() => setReviewing(false)}
      />
    </Paper>
  );
}
