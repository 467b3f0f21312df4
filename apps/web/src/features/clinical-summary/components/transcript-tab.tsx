import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MESSAGES_PAGE_SIZE } from '@loopdesk/contracts/conversations.ts';
import { useEffect, useState } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { useJobMessages } from '../api/get-job-messages.ts';

const AUTHORS = { patient: 'Patient', assistant: 'Assistant', reviewer: 'Staff' } as const;

/** Spec 2 §8: what a transcript that cannot be loaded says. */
export const conversationNotFound = (error: unknown) =>
  `Conversation not found - ${errorMessage(error)}`;

/** The job's conversation, oldest first, in pages of 10 (spec 2 §2, §9). */
export function TranscriptTab({ jobId }: { jobId: string }) {
  const [page, setPage] = useState(0);
  const messages = useJobMessages(jobId, page);
  const toast = useToast();
  useEffect(() => {
    if (messages.isError) {
      toast.error(conversationNotFound(messages.error));
    }
  }, [messages.isError, messages.error, toast]);
  const data = messages.data;
  if (!data) {
    return (
      <Typography sx={{ p: 2 }}>{messages.isError ? '' : 'Loading the conversation…'}</Typography>
    );
  }
  const pages = Math.max(1, Math.ceil(data.page.total / MESSAGES_PAGE_SIZE));
  return (
    <Stack spacing={1} sx={{ p: 1 }}>
      {data.items.length === 0 ? (
        <Typography sx={{ p: 1 }}>No messages in this conversation yet.</Typography>
      ) : (
        <List aria-label="Transcript" dense>
          {data.items.map((message) => (
            <ListItem key={message.id} sx={{ alignItems: 'flex-start' }}>
              <ListItemText
                primary={message.content}
                secondary={`${AUTHORS[message.author.kind]} · ${new Date(message.createdOn).toLocaleString()}`}
              />
            </ListItem>
          ))}
        </List>
      )}
      {pages > 1 ? (
        <Pagination
          aria-label="Transcript pages"
          count={pages}
          page={page + 1}
          onChange={(_event, next) => setPage(next - 1)}
        />
      ) : null}
    </Stack>
  );
}
