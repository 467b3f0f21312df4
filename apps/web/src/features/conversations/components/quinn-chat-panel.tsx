import { Box, Paper, Typography } from '@mui/material';
import { useLayoutEffect, useRef } from 'react';
import type { ConversationMessage } from '@loopdesk/contracts/conversations.ts';

/**
 * 'Quinn Chat' (spec 3 §2): the transcript. A refresh keeps the reader's place: it follows new
 * messages only when the reader was at the bottom.
 */
export function QuinnChatPanel({ messages }: { messages: readonly ConversationMessage[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const count = messages.length;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
  }, [count]);
  return (
    <Paper component="section" aria-labelledby="quinn-chat" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" id="quinn-chat">
        Quinn Chat
      </Typography>
      <Box
        ref={scroller}
        tabIndex={0}
        aria-label="Transcript"
        role="log"
        onScroll={(event) => {
          const e = event.currentTarget;
          atBottom.current = e.scrollHeight - e.scrollTop - e.clientHeight < 24;
        }}
        sx={{ maxHeight: 420, overflow: 'auto', mt: 1 }}
      >
        {messages.length === 0 && <Typography variant="body2">No message yet.</Typography>}
        {messages.map((m) => (
          <Box
            key={m.id}
            sx={{
              my: 0.5,
              p: 1,
              borderRadius: 1,
              maxWidth: '85%',
              ml: m.direction === 'IN' ? 0 : 'auto',
              bgcolor: m.direction === 'IN' ? 'grey.800' : 'grey.900',
              border: 1,
              borderColor: m.direction === 'IN' ? 'grey.700' : 'primary.main',
            }}
          >
            <Typography variant="caption" component="p">
              {m.author.name}
            </Typography>
            <Typography variant="body2">{m.content}</Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
