import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useState } from 'react';
import type { SessionSummary } from '@loopdesk/contracts/realtime.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useEndSession, type SessionAction } from '../api/end-session.ts';
import { useSessionSummary } from '../api/get-session-summary.ts';
import { SessionTable } from '../components/session-table.tsx';

type Session = SessionSummary['items'][number];

/** Spec 3 §8 "Session close dialog"; the remove dialog "uses the same wording with 'remove'". */
export const confirmMessage = (action: SessionAction) =>
  `Are you sure you want to ${action} the technicians session? This will take 5 seconds to propogate.`;
/** Spec 3 §8 "Session remove failure". */
export const REMOVE_FAILED_MESSAGE = 'Error trying to remove session.';

const CONFIRM: Record<SessionAction, { title: string; label: string }> = {
  close: { title: 'Close session', label: 'Close' },
  remove: { title: 'Force remove session', label: 'Force Remove' },
};

const DONE: Record<SessionAction, string> = {
  close: 'The session was closed.',
  remove: 'The session was removed.',
};

/** /admin/session-management (spec 3 §2 Session management). */
export function SessionManagementRoute() {
  usePageTitle('Session Management');
  const toast = useToast();
  const summary = useSessionSummary();
  const end = useEndSession();
  const [pending, setPending] = useState<{ session: Session; action: SessionAction } | null>(null);

  const confirm = () => {
    if (!pending) {
      return;
    }
    const { session, action } = pending;
    setPending(null);
    end.mutate(
      { technicianId: session.technicianId, action },
      {
        onSuccess: () => toast.success(DONE[action]),
        onError: (error) =>
          toast.error(
            action === 'remove'
              ? `${REMOVE_FAILED_MESSAGE} ${errorMessage(error)}`
              : errorMessage(error),
          ),
      },
    );
  };

  const text = pending ? CONFIRM[pending.action] : null;
  return (
    <Box component="section" aria-label="Session management">
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <Button
          variant="outlined"
          onClick={() => void summary.refetch()}
          disabled={summary.isFetching}
        >
          Refresh
        </Button>
      </Box>
      {summary.isPending ? (
        <CircularProgress aria-label="Loading sessions" />
      ) : summary.isError ? (
        <Alert severity="error">{errorMessage(summary.error)}</Alert>
      ) : (
        <SessionTable
          sessions={summary.data.items}
          busy={end.isPending}
          onAction={(session, action) => setPending({ session, action })}
        />
      )}
      <ConfirmDialog
        open={pending !== null}
        title={text?.title ?? ''}
        message={
          pending
            ? `${confirmMessage(pending.action)} (${pending.session.name}, ${pending.session.source})`
            : ''
        }
        confirmLabel={text?.label ?? 'Confirm'}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </Box>
  );
}
