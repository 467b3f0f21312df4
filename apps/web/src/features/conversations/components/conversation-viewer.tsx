import { Alert, Box, Button, Grid, List, ListItem, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import {
  differentialQueryOptions,
  memoryQueryOptions,
  messagesQueryOptions,
  readsQueryOptions,
} from '../api/conversation-queries.ts';
import { conversationNotFound, memoryError } from '../utils/messages.ts';
import { MemoryGraph } from './memory-graph.tsx';
import { NetworkDataPanel } from './network-data-panel.tsx';
import { QuinnChatPanel } from './quinn-chat-panel.tsx';

/** Shows an error once as a toast each time it changes (the alert stays on the screen). */
function useToastOnChange(message: string | null) {
  const toast = useToast();
  useEffect(() => {
    if (message) {
      toast.error(message);
    }
  }, [message, toast]);
}

function AccessLog({ id, tenant }: { id: string; tenant: string | undefined }) {
  const [open, setOpen] = useState(false);
  const reads = useQuery(readsQueryOptions({ id, tenant }, open));
  return (
    <Box component="section" aria-label="Access log">
      <Button size="small" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        {open ? 'Hide who read this conversation' : 'Who read this conversation'}
      </Button>
      {open && reads.data && (
        <List dense aria-label="Reads of this conversation">
          {reads.data.items.map((r, index) => (
            <ListItem key={`${r.at}-${index}`}>
              {new Date(r.at).toLocaleString()} — {r.actorEmail ?? 'unknown'} — {r.action} (
              {r.outcome})
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

/**
 * A conversation opened (spec 3 §2): the 3D memory graph, 'Network Data' and 'Quinn Chat', each
 * refreshed every 5 s (spec 3 §7) without moving the reader's focus or scroll.
 */
export function ConversationViewer({ id, tenant }: { id: string; tenant: string | undefined }) {
  const conversation = { id, tenant };
  const messages = useQuery(messagesQueryOptions(conversation));
  const memory = useQuery(memoryQueryOptions(conversation));
  const differential = useQuery(differentialQueryOptions(conversation));
  const notFound = messages.isError ? conversationNotFound(errorMessage(messages.error)) : null;
  const memoryFailed = memory.isError ? memoryError(errorMessage(memory.error)) : null;
  useToastOnChange(notFound);
  useToastOnChange(memoryFailed);
  const patient = memory.data?.vertices.find((v) => v.kind === 'patient');
  const patientText = (messages.data?.items ?? [])
    .filter((m) => m.direction === 'IN' && m.author.kind === 'patient')
    .map((m) => m.content)
    .join('\n');
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack sx={{ alignItems: 'center' }} direction="row" spacing={2}>
        <Button component={RouterLink} to="/conversations" size="small">
          All conversations
        </Button>
        <Typography variant="h5" component="h2">
          {patient?.label ?? id}
        </Typography>
      </Stack>
      {notFound && <Alert severity="error">{notFound}</Alert>}
      {memoryFailed && <Alert severity="error">{memoryFailed}</Alert>}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <MemoryGraph memory={memory.data} />
          <AccessLog id={id} tenant={tenant} />
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Stack spacing={2}>
            <NetworkDataPanel
              id={id}
              tenant={tenant}
              differential={differential.data?.value}
              patientText={patientText}
            />
            <QuinnChatPanel messages={messages.data?.items ?? []} />
          </Stack>
        </Grid>
      </Grid>
    </Stack>
  );
}
