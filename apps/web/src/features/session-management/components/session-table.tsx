import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SessionSummary } from '@loopdesk/contracts/realtime.ts';
import type { SessionAction } from '../api/end-session.ts';

type Session = SessionSummary['items'][number];

/** Spec 3 §2: Close and Force Remove only for sessions whose source contains 'federated'. */
export function canEnd(session: Session): boolean {
  return session.source.includes('federated');
}

interface SessionTableProps {
  sessions: readonly Session[];
  onAction: (session: Session, action: SessionAction) => void;
  /** An action is under way: its buttons wait. */
  busy: boolean;
}

/** The sessions table: User Id, State, Source and Actions (spec 3 §2 Session management). */
export function SessionTable({ sessions, onAction, busy }: SessionTableProps) {
  return (
    <Table size="small" aria-label="Technician sessions">
      <TableHead>
        <TableRow>
          <TableCell>User Id</TableCell>
          <TableCell>State</TableCell>
          <TableCell>Source</TableCell>
          <TableCell>Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {sessions.length === 0 ? (
          <TableRow>
            <TableCell colSpan={4}>No technician sessions.</TableCell>
          </TableRow>
        ) : (
          sessions.map((session) => (
            <TableRow key={`${session.technicianId}/${session.source}`}>
              <TableCell>
                <Typography variant="body2">{session.technicianId}</Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {session.name}
                </Typography>
              </TableCell>
              <TableCell>
                {session.state}
                {session.connected ? null : (
                  <Typography variant="caption" component="span" sx={{ color: 'text.secondary' }}>
                    {' '}
                    (not connected)
                  </Typography>
                )}
              </TableCell>
              <TableCell>{session.source}</TableCell>
              <TableCell>
                {canEnd(session) ? (
                  <Stack direction="row" spacing={1}>
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={busy}
                      aria-label={`Close the ${session.source} session of ${session.name}`}
                      onClick={() => onAction(session, 'close')}
                    >
                      Close
                    </Button>
                    <Button
                      size="small"
                      variant="outlined"
                      color="error"
                      disabled={busy}
                      aria-label={`Force remove the ${session.source} session of ${session.name}`}
                      onClick={() => onAction(session, 'remove')}
                    >
                      Force Remove
                    </Button>
                  </Stack>
                ) : null}
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
