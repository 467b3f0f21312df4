import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSummaryQueueSize } from '../api/get-queue-size.ts';

/** The queue line of spec 2 §2; 'unknown' when the size cannot be read (spec 1 §8). */
export function queueLine(size: number | 'unknown'): string {
  return `There are ${size} jobs in the queue.`;
}

/**
 * The screen without a job: how many summary jobs wait (polled every 5 s) and, when some do,
 * 'Get next job' (spec 2 §2).
 */
export function QueueView({ onTake, busy }: { onTake: () => void; busy: boolean }) {
  const size = useSummaryQueueSize();
  const shown = size.isError ? 'unknown' : size.data;
  return (
    <Stack spacing={2} sx={{ p: 2, alignItems: 'flex-start' }}>
      <Typography variant="h5" component="h2">
        Summary Jobs
      </Typography>
      <Typography role="status">{shown === undefined ? '' : queueLine(shown)}</Typography>
      {typeof shown === 'number' && shown > 0 ? (
        <Button variant="contained" onClick={onTake} disabled={busy}>
          Get next job
        </Button>
      ) : null}
    </Stack>
  );
}
