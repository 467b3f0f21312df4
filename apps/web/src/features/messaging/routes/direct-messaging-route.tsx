import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { MESSAGING_MESSAGES, type Thread } from '@loopdesk/contracts/messaging.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useToast } from '../../../components/toast-context.ts';
import { HttpError, errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useCustomer } from '../api/get-customer.ts';
import { useThreadMessages } from '../api/get-thread-messages.ts';
import { useThreads } from '../api/get-threads.ts';
import { useThreadActions } from '../api/thread-actions.ts';
import { MessagePane } from '../components/message-pane.tsx';
import { NewThreadForm } from '../components/new-thread-form.tsx';
import { customerName, ThreadList } from '../components/thread-list.tsx';

const withError = (template: string, error: unknown) =>
  template.replace('{error}', errorMessage(error));

/** Shows a toast once each time a query fails. */
function useFailureToast(failedAt: number, message: string) {
  const toast = useToast();
  useEffect(() => {
    if (failedAt > 0) {
      toast.error(message);
    }
  }, [failedAt, message, toast]);
}

/** /communication/direct (spec 3 §2 Direct messaging, §4 thread lifecycle, §7, §8). */
export function DirectMessagingRoute() {
  usePageTitle('Direct Messaging');
  const toast = useToast();
  const threads = useThreads();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const actions = useThreadActions();
  const selected = threads.data?.items.find((thread) => thread.id === selectedId) ?? null;
  const messages = useThreadMessages(selected ? selected.id : null);
  const customer = useCustomer(selected ? selected.customer.id : null);

  useFailureToast(threads.errorUpdatedAt, MESSAGING_MESSAGES.threadsLoadFailed);
  useFailureToast(messages.errorUpdatedAt, MESSAGING_MESSAGES.messagesLoadFailed);
  useFailureToast(
    customer.errorUpdatedAt,
    withError(MESSAGING_MESSAGES.customerLookupFailed, customer.error),
  );

  // Selecting a thread loads its messages and marks them read (spec 3 §2, §4).
  const select = (thread: Thread) => {
    setSelectedId(thread.id);
    if (thread.unreadIn > 0) {
      actions.markRead.mutate(thread.id);
    }
  };

  const start = async (email: string, content: string): Promise<boolean> => {
    try {
      const started = await actions.start.mutateAsync({ email, content });
      setSelectedId(started.id);
      toast.success(`Thread started with ${email}.`);
      return true;
    } catch (error) {
      toast.error(
        error instanceof HttpError && error.status === 409
          ? MESSAGING_MESSAGES.openThreadExists
          : withError(MESSAGING_MESSAGES.startFailed, error),
      );
      return false;
    }
  };

  const send = async (content: string): Promise<boolean> => {
    if (!selected) {
      return false;
    }
    try {
      await actions.send.mutateAsync({
        threadId: selected.id,
        customerId: selected.customer.id,
        content,
      });
      await messages.refetch();
      return true;
    } catch (error) {
      toast.error(withError(MESSAGING_MESSAGES.sendFailed, error));
      return false;
    }
  };

  const archive = () => {
    setConfirmArchive(false);
    if (!selected) {
      return;
    }
    const name = customerName(selected);
    actions.archive.mutate(selected.id, {
      onSuccess: () => {
        setSelectedId(null);
        toast.success(`Thread with ${name} archived.`);
      },
      onError: (error) => toast.error(withError(MESSAGING_MESSAGES.archiveFailed, error)),
    });
  };

  const details =
    customer.data && 'email' in customer.data
      ? [customer.data.email, customer.data.tenant].filter(Boolean).join(' · ')
      : null;

  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: '320px 1fr' },
        gap: 2,
        height: { md: 'calc(100vh - 140px)' },
      }}
    >
      <Paper component="section" aria-label="Threads" sx={{ overflowY: 'auto' }}>
        <NewThreadForm busy={actions.start.isPending} onStart={start} />
        <Divider />
        <Typography variant="subtitle2" component="h2" sx={{ px: 2, pt: 2 }}>
          Open threads
        </Typography>
        {threads.isPending ? (
          <CircularProgress aria-label="Loading threads" sx={{ m: 2 }} />
        ) : (
          <ThreadList threads={threads.data?.items ?? []} selected={selectedId} onSelect={select} />
        )}
      </Paper>
      <Paper sx={{ minHeight: 320, display: 'flex', flexDirection: 'column' }}>
        {selected ? (
          <MessagePane
            thread={selected}
            customerDetails={details}
            messages={messages.data?.items ?? []}
            loading={messages.isPending}
            sending={actions.send.isPending}
            onSend={send}
            onArchive={() => setConfirmArchive(true)}
          />
        ) : (
          <Typography color="text.secondary" sx={{ p: 3 }}>
            Select a thread to read its messages, or start a new one.
          </Typography>
        )}
      </Paper>
      <ConfirmDialog
        open={confirmArchive}
        title="Archive thread"
        message={
          selected
            ? `Archive the thread with ${customerName(selected)}? It leaves the open threads and takes no more messages; a new thread can be started later.`
            : ''
        }
        confirmLabel="Archive"
        onConfirm={archive}
        onCancel={() => setConfirmArchive(false)}
      />
    </Box>
  );
}
