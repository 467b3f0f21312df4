import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useSessionCount } from '../api/get-session-count.ts';

function countText(count: number | undefined, failed: boolean): string {
  if (failed) {
    return 'unknown';
  }
  return count === undefined ? '…' : String(count);
}

export interface SessionFooterProps {
  paused: boolean;
  /** The technician session's state: the counts are asked for again whenever it changes. */
  state: string;
  onResume: () => void;
  onPause: () => void;
  /** The session ended for good (a second session, close code 1008): no Pause/Resume. */
  ended?: boolean;
}

/**
 * The footer of the technician screens (spec 1 §2, 2 §2): the federated and exception session
 * counts, polled every 20 s ('unknown' when the call fails, spec 1 §8) and asked for again when the
 * session changes state so a Resume shows at once, and the Pause/Resume button.
 */
export function SessionFooter({
  paused,
  state,
  onResume,
  onPause,
  ended = false,
}: SessionFooterProps) {
  const counts = useSessionCount();
  const { refetch } = counts;
  useEffect(() => {
    void refetch();
  }, [state, refetch]);
  return (
    <Stack
      component="footer"
      direction="row"
      sx={{
        alignItems: 'center',
        gap: 3,
        borderTop: 1,
        borderColor: 'divider',
        py: 2,
        // At the bottom of the window, also under a long job (issue 20).
        position: 'sticky',
        bottom: 0,
        bgcolor: 'background.default',
        zIndex: 1,
      }}
    >
      <Typography>
        Federated sessions: {countText(counts.data?.federated, counts.isError)}
      </Typography>
      <Typography>
        Exception sessions: {countText(counts.data?.exception, counts.isError)}
      </Typography>
      <Box sx={{ flexGrow: 1 }} />
      {ended ? null : (
        <Button variant="contained" onClick={() => (paused ? onResume() : onPause())}>
          {paused ? 'Resume' : 'Pause'}
        </Button>
      )}
    </Stack>
  );
}
