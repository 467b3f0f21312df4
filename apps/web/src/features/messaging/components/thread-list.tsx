import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { Thread } from '@loopdesk/contracts/messaging.ts';

/** A customer's name as the thread shows it. */
export function customerName(thread: Pick<Thread, 'customer'>): string {
  const { given, family } = thread.customer.name;
  return `${given} ${family}`.trim() || thread.customer.id;
}

/** The open threads (spec 3 §2): each with its customer, latest message and unread count. */
export function ThreadList({
  threads,
  selected,
  onSelect,
}: {
  threads: readonly Thread[];
  selected: string | null;
  onSelect: (thread: Thread) => void;
}) {
  if (threads.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        No open threads. Start one for a customer above.
      </Typography>
    );
  }
  return (
    <List aria-label="Open threads" dense disablePadding>
      {threads.map((thread) => {
        const latest = thread.messages.at(-1);
        const unread = thread.unreadIn > 0 ? `${thread.unreadIn} unread` : '';
        return (
          <ListItem key={thread.id} disablePadding>
            <ListItemButton
              selected={thread.id === selected}
              aria-current={thread.id === selected ? 'true' : undefined}
              onClick={() => onSelect(thread)}
            >
              <ListItemText
                primary={customerName(thread)}
                secondary={
                  latest
                    ? `${latest.direction === 'IN' ? '' : 'You: '}${latest.content}`
                    : 'No messages yet'
                }
                slotProps={{ secondary: { noWrap: true } }}
              />
              {unread ? (
                <Chip label={unread} size="small" color="secondary" sx={{ ml: 1 }} />
              ) : null}
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
