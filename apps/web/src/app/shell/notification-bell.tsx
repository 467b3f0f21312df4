import NotificationsIcon from '@mui/icons-material/Notifications';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { PORTAL_ROUTES, type PortalRouteId } from '@loopdesk/contracts/portal-routes.ts';
import { canAccess } from '@loopdesk/contracts/privileges.ts';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { queueSizeQueryOptions, type QueueName } from '../../features/queues/api/get-queue-size.ts';
import { playAlert } from '../../lib/sound/alert.ts';

interface BellQueue {
  queue: QueueName;
  label: string;
  /** The screen the entry links to; its access decides whether the role sees the queue at all. */
  screen: PortalRouteId;
}

/** The bell's entries, in the spec's order and words (spec 1 §2 Shell). */
const BELL_QUEUES: readonly BellQueue[] = [
  { queue: 'federated', label: 'Federated Job Queue', screen: 'federated' },
  { queue: 'exceptions', label: 'Exceptions Queue', screen: 'exception' },
  { queue: 'hpi-summarisation', label: 'Summary Jobs', screen: 'clinical-summary' },
];

function screenOf(id: PortalRouteId) {
  const route = PORTAL_ROUTES.find((candidate) => candidate.id === id);
  if (!route) {
    throw new Error(`No portal route ${id}`);
  }
  return route;
}

/**
 * The bell's queues that `roles` may open (issue 20 #23, docs/decisions.md): a queue whose screen
 * answers "You do not have access" is neither counted, listed nor sounded. Every role: the spec's
 * three.
 */
export function bellQueuesFor(roles: readonly string[]): readonly (BellQueue & { to: string })[] {
  return BELL_QUEUES.flatMap((entry) => {
    const route = screenOf(entry.screen);
    return canAccess(roles, route.access) ? [{ ...entry, to: route.path }] : [];
  });
}

/** A queue size as shown: a number, 'unknown' after a failure, or null before the first answer. */
type ShownSize = number | 'unknown' | null;

function badgeOf(sizes: readonly ShownSize[]): { content: string; total: string } {
  if (sizes.includes('unknown')) {
    return { content: '?', total: 'unknown' };
  }
  if (sizes.includes(null)) {
    return { content: '', total: 'loading' };
  }
  const total = (sizes as number[]).reduce((sum, size) => sum + size, 0);
  return { content: total > 0 ? String(total) : '', total: String(total) };
}

/**
 * Spec 1 §4 "Sounds": an alert plays when the federated or exception queue size is above 0. It
 * plays when either becomes above 0, then again every 30 s while one stays above 0 (README).
 */
export const QUEUE_ALERT_REPEAT_MS = 30_000;
/** The queues whose work the alert announces (spec 1 §4). */
const ALERT_QUEUES: readonly QueueName[] = ['federated', 'exceptions'];

function useQueueAlert(waiting: boolean): void {
  useEffect(() => {
    if (!waiting) {
      return undefined;
    }
    playAlert();
    const timer = setInterval(playAlert, QUEUE_ALERT_REPEAT_MS);
    return () => clearInterval(timer);
  }, [waiting]);
}

/**
 * The bell: total of the federated, exception and summary queues that the roles may open, polled
 * every 5 s. A role that opens none of them has no bell.
 */
export function NotificationBell({ roles }: { roles: readonly string[] }) {
  const queues = bellQueuesFor(roles);
  return queues.length === 0 ? null : <QueueBell queues={queues} />;
}

function QueueBell({ queues }: { queues: readonly (BellQueue & { to: string })[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const results = useQueries({
    queries: queues.map(({ queue }) => queueSizeQueryOptions(queue)),
  });
  // Spec 1 §8: a failed or non-200 answer shows 'unknown', even if an older size is cached.
  const sizes: ShownSize[] = results.map((result) =>
    result.isError ? 'unknown' : (result.data ?? null),
  );
  const badge = badgeOf(sizes);
  // An unknown size is not "above 0": only a size the server gave counts.
  useQueueAlert(
    queues.some(({ queue }, index) => {
      const size = sizes[index];
      return ALERT_QUEUES.includes(queue) && typeof size === 'number' && size > 0;
    }),
  );

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={`Queue sizes: ${badge.total}`}
        aria-haspopup="menu"
        aria-controls={anchor ? 'queue-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {/* No badge at 0: MUI keeps an invisible badge's last number in the DOM, which would
            contradict the button's name ('Queue sizes: 0') for screen readers. */}
        {badge.content === '' ? (
          <NotificationsIcon />
        ) : (
          <Badge badgeContent={badge.content} color={badge.content === '?' ? 'warning' : 'error'}>
            <NotificationsIcon />
          </Badge>
        )}
      </IconButton>
      <Menu
        id="queue-menu"
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
      >
        {queues.map(({ queue, label, to }, index) => {
          const size = sizes[index];
          return (
            <MenuItem key={queue} component={RouterLink} to={to} onClick={() => setAnchor(null)}>
              {`${size === null || size === undefined ? '…' : size} ${label}`}
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
