import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AsyncTask } from '@loopdesk/contracts/async-jobs.ts';

/** A conversation item of a differential or labelling task (spec 3 §3): question and answer. */
export interface ConversationItem {
  question: string;
  text: string;
}

export function conversationOf(task: AsyncTask): ConversationItem[] {
  const value = task.data.conversation;
  if (!Array.isArray(value)) {
    return [];
  }
  return (value as unknown[]).flatMap((item) => {
    if (!item || typeof item !== 'object') {
      return [];
    }
    const o = item as { question?: unknown; text?: unknown };
    const question = typeof o.question === 'string' ? o.question : '';
    const text = typeof o.text === 'string' ? o.text : '';
    return question || text ? [{ question, text }] : [];
  });
}

/** '{age} year old {gender}' when both are present (spec 3 §2 Differential). */
export function patientLine(task: AsyncTask): string | undefined {
  const { age, gender } = task.data;
  const hasAge =
    (typeof age === 'number' && Number.isFinite(age)) ||
    (typeof age === 'string' && age.trim() !== '');
  const hasGender = typeof gender === 'string' && gender.trim() !== '';
  return hasAge && hasGender ? `${String(age).trim()} year old ${gender.trim()}` : undefined;
}

/** The conversation as question and answer pairs. */
export function Transcript({ items }: { items: readonly ConversationItem[] }) {
  if (items.length === 0) {
    return <Typography color="text.secondary">The task has no conversation.</Typography>;
  }
  return (
    <Stack
      component="ol"
      aria-label="Conversation"
      spacing={1}
      sx={{ listStyle: 'none', p: 0, m: 0 }}
    >
      {items.map((item, index) => (
        <Box component="li" key={index}>
          <Typography variant="body2" color="text.secondary">
            {`Q: ${item.question}`}
          </Typography>
          <Typography>{`A: ${item.text}`}</Typography>
        </Box>
      ))}
    </Stack>
  );
}
