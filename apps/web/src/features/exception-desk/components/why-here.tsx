import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ExceptionConversation } from '@loopdesk/contracts/exceptions.ts';
import type { JobEventData } from '@loopdesk/contracts/realtime.ts';

/** A task of the conversation, as the socket sent it. */
export interface DeskTask {
  readonly data: JobEventData;
}
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';

export const WHY_HERE_TITLE = 'Why this conversation is here';
/** What the reviewer may do with a conversation at the desk. */
export const REVIEWER_CHOICES =
  'Complete the task for the assistant, reply to the patient under the transcript, end the encounter (with an appointment or without), or hand it back to the assistant.';

/**
 * The assistant's job at the handover, in words: the slot of its task, its original job type and
 * the question it had asked.
 */
export function originalJobText(job: DeskTask | null): string {
  if (!job) {
    return 'none on screen yet: the assistant sends a task with the patient’s next message.';
  }
  const view = readMessageJob(job.data);
  const what = view.slotSpecification?.short_description ?? view.slotSpecification?.code;
  const parts = [
    what ? `the ${what} slot` : 'a task',
    view.originalJob ? `(${view.originalJob})` : null,
    view.lastQuestion ? `after the assistant asked “${view.lastQuestion}”` : null,
  ];
  return parts.filter(Boolean).join(' ');
}

export interface WhyHereProps {
  conversation: ExceptionConversation;
  /** The conversation's latest task seen on screen, if any. */
  job: DeskTask | null;
}

/**
 * The left pane's account of the conversation on screen (issue 20): why the assistant handed it
 * over, the job it was doing, and what the reviewer may do with it.
 */
export function WhyHere({ conversation, job }: WhyHereProps) {
  return (
    <Stack
      component="section"
      aria-label={WHY_HERE_TITLE}
      sx={{ gap: 0.5, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Typography variant="subtitle2" component="h2">
        {WHY_HERE_TITLE}
      </Typography>
      <Typography variant="body2">
        <Box component="strong">Reason: </Box>
        {conversation.reason ?? 'the assistant gave none.'}
        {conversation.queue === 'exceptions-restricted' ? ' (restricted queue)' : ''}
      </Typography>
      <Typography variant="body2">
        <Box component="strong">Original job: </Box>
        {originalJobText(job)}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        <Box component="strong">You may: </Box>
        {REVIEWER_CHOICES}
      </Typography>
    </Stack>
  );
}
