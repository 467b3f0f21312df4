import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useRedisStats } from '../api/get-redis-stats.ts';

/** What the dashboard says on a node without Redis. */
export const NO_REDIS_MESSAGE =
  'This node runs without Redis (REDIS_URL is not set), so there are no keys to list. Redis is what joins several Loopdesk nodes: with REDIS_URL set on each, they tell one another of new jobs, closed sessions and changed roles. A single node needs none.';

const bytes = new Intl.NumberFormat();

/**
 * /admin/system/redis (spec 3 §2 "Redis dashboard"): the keys with their memory in bytes and the
 * key count, a page at a time (the server scans, never KEYS).
 */
export function RedisRoute() {
  usePageTitle('Redis');
  const [typed, setTyped] = useState('');
  const [match, setMatch] = useState('');
  // The cursors of the pages before this one, so Previous can go back.
  const [cursors, setCursors] = useState<string[]>(['0']);
  const cursor = cursors[cursors.length - 1] ?? '0';
  const stats = useRedisStats({ cursor, match });

  if (stats.isPending) {
    return <CircularProgress aria-label="Loading Redis keys" />;
  }
  if (stats.isError) {
    return <Alert severity="error">{errorMessage(stats.error)}</Alert>;
  }
  if (!stats.data.configured) {
    return (
      <Alert severity="info" component="section" aria-label="Redis">
        {NO_REDIS_MESSAGE}
      </Alert>
    );
  }
  const { keyCount, nextCursor } = stats.data;
  const rows = Object.entries(stats.data.stats.keys).sort(([, a], [, b]) => b - a);
  return (
    <Box component="section" aria-label="Redis">
      <Typography variant="h6" component="p" sx={{ mb: 1 }}>
        {keyCount === 1 ? '1 key' : `${bytes.format(keyCount)} keys`}
      </Typography>
      <Stack
        component="form"
        role="search"
        aria-label="Filter keys"
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', mb: 2 }}
        onSubmit={(event) => {
          event.preventDefault();
          setMatch(typed);
          setCursors(['0']);
        }}
      >
        <TextField
          label="Key pattern"
          placeholder="loopdesk:*"
          size="small"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <Button type="submit" variant="outlined">
          Filter
        </Button>
      </Stack>
      <Table size="small" aria-label="Redis keys">
        <TableHead>
          <TableRow>
            <TableCell>Key</TableCell>
            <TableCell align="right">Memory (bytes)</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(([key, size]) => (
            <TableRow key={key}>
              <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{key}</TableCell>
              <TableCell align="right">{bytes.format(size)}</TableCell>
            </TableRow>
          ))}
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={2}>No keys on this page.</TableCell>
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
      <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
        <Button
          disabled={cursors.length < 2 || stats.isFetching}
          onClick={() => setCursors((list) => list.slice(0, -1))}
        >
          Previous page
        </Button>
        <Button
          disabled={nextCursor === null || stats.isFetching}
          onClick={() => nextCursor !== null && setCursors((list) => [...list, nextCursor])}
        >
          Next page
        </Button>
        <Typography component="span" sx={{ color: 'text.secondary' }}>
          Page {cursors.length}
          {nextCursor === null ? ' (last)' : ''}
        </Typography>
      </Stack>
    </Box>
  );
}
