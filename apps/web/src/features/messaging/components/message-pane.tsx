import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Thread, ThreadMessage } from '@loopdesk/contracts/messaging.ts';
import { customerName } from './thread-list.tsx';

const time = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Message({ message, customer }: { message: ThreadMessage; customer: string }) {
  const out = message.direction === 'OUT';
  return (
    <ListItem sx={{ justifyContent: out ? 'flex-end' : 'flex-start' }}>
      <Paper
        variant="outlined"
        sx={{ p: 1.5, maxWidth: '75%', bgcolor: out ? 'action.selected' : 'background.paper' }}
      >
        <Typography variant="caption" color="text.secondary" component="p">
          {out ? (message.author.name ?? 'Staff') : customer} · {time(message.createdOn)}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap' }}>{message.content}</Typography>
      </Paper>
    </ListItem>
  );
}

/**
 * The selected thread (spec 3 §2): its messages, oldest first, and a box whose Enter sends the
 * trimmed text when it is not empty (spec 3 §5); Shift+Enter starts a new line.
 */
export function MessagePane({
  thread,
  customerDetails,
  messages,
  loading,
  sending,
  onSend,
  onArchive,
}: {
  thread: Thread;
  customerDetails: string | null;
  messages: readonly ThreadMessage[];
  loading: boolean;
  sending: boolean;
  onSend: (content: string) => Promise<boolean>;
  onArchive: () => void;
}) {
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const name = customerName(thread);
  const trimmed = text.trim();

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length]);

  const send = () => {
    if (trimmed === '' || sending) {
      return;
    }
    void onSend(trimmed).then((sent) => {
      if (sent) {
        setText('');
      }
    });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  return (
    <Box
      component="section"
      aria-label={`Thread with ${name}`}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 2, pb: 1 }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h6" component="h2">
            {name}
          </Typography>
          {customerDetails ? (
            <Typography variant="body2" color="text.secondary">
              {customerDetails}
            </Typography>
          ) : null}
        </Box>
        <Button variant="outlined" color="warning" onClick={onArchive}>
          Archive
        </Button>
      </Box>
      <Box sx={{ flex: 1, overflowY: 'auto', px: 1 }}>
        {loading ? (
          <CircularProgress aria-label="Loading messages" sx={{ m: 2 }} />
        ) : (
          <List aria-label="Messages">
            {messages.map((message) => (
              <Message key={message.id} message={message} customer={name} />
            ))}
          </List>
        )}
        <div ref={end} />
      </Box>
      <Box sx={{ display: 'flex', gap: 1, p: 2, alignItems: 'flex-start' }}>
        <TextField
          label="Message"
          placeholder={`Write to ${name}; Enter sends, Shift+Enter starts a new line`}
          multiline
          maxRows={6}
          fullWidth
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button variant="contained" onClick={send} disabled={trimmed === '' || sending}>
          Send
        </Button>
      </Box>
    </Box>
  );
}
