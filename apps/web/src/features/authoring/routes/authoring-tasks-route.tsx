import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { PATHS, PORTAL_ROUTES, type PortalRouteId } from '@loopdesk/contracts/portal-routes.ts';
import { canAccess, type Role } from '@loopdesk/contracts/privileges.ts';
import type { AuthoringJobSummary } from '@loopdesk/contracts/routes/authoring.ts';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/toast-context.ts';
import { useCurrentUser } from '../../../lib/auth/use-current-user.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { takeJob, takenJobKey, useAuthoringJobs } from '../api/authoring.ts';
import { TaskTable } from '../components/task-table.tsx';

/** A path of the route table with its `:id` filled. */
export const fillPath = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/** Where a row opens (spec 2 §2): preparation review → the data preparation review screen. */
export function screenOf(row: Pick<AuthoringJobSummary, 'key' | 'jobType'>): string {
  switch (row.jobType) {
    case 'preparation review':
      return fillPath(PATHS['data-preparation-job'], row.key);
    case 'annotation review':
      return fillPath(PATHS['authoring-review'], row.key);
    case 'annotation':
    case 'annotation draft':
      return fillPath(PATHS['authoring-task'], row.key);
  }
}

/** The screen a row opens, by its job type (spec 2 §2). */
const SCREEN_OF_TYPE: Record<AuthoringJobSummary['jobType'], PortalRouteId> = {
  'preparation review': 'data-preparation-job',
  'annotation review': 'authoring-review',
  annotation: 'authoring-task',
  'annotation draft': 'authoring-task',
};

/**
 * Whether the user may open the screen a row leads to: a row that would only lead to 'You do not
 * have access to this screen.' (an annotator and a preparation review) is not listed.
 */
export function canOpenRow(roles: readonly Role[], row: Pick<AuthoringJobSummary, 'jobType'>) {
  const route = PORTAL_ROUTES.find((r) => r.id === SCREEN_OF_TYPE[row.jobType]);
  return route !== undefined && canAccess(roles, route.access);
}

/** /jobs/authoring-tasks (spec 2 §2 "Authoring Tasks screen"). */
export function AuthoringTasksRoute() {
  usePageTitle('Authoring Tasks');
  const navigate = useNavigate();
  const toast = useToast();
  const client = useQueryClient();
  const jobs = useAuthoringJobs();
  const roles = useCurrentUser()?.permissions.roles ?? [];
  const [loading, setLoading] = useState<string | null>(null);
  // Spec 2 §2 "While loading, a second click is ignored": a ref, so two clicks in one frame too.
  const busy = useRef(false);

  // Stable, so the rows (memoised) are not drawn again on every render of the list.
  const open = useCallback(
    (row: AuthoringJobSummary) => {
      if (busy.current) {
        return;
      }
      const target = screenOf(row);
      if (row.jobType === 'preparation review') {
        void navigate(target);
        return;
      }
      busy.current = true;
      setLoading(row.key);
      client.fetchQuery({ queryKey: takenJobKey(row.key), queryFn: () => takeJob(row.key) }).then(
        () => {
          busy.current = false;
          setLoading(null);
          void navigate(target);
        },
        (error: unknown) => {
          // Spec 2 §8 "Job select error: HTTP error toast and return to the list".
          busy.current = false;
          setLoading(null);
          toast.error(errorMessage(error));
        },
      );
    },
    [client, navigate, toast],
  );

  // Spec 2 §8 "Authoring job list load error: only clears the busy indicator".
  const items = (jobs.data?.items ?? []).filter((row) => canOpenRow(roles, row));
  return (
    <Stack spacing={2} sx={{ p: 2, maxWidth: 1100 }}>
      <Typography variant="h5" component="h2">
        Authoring Tasks
      </Typography>
      {jobs.isPending ? <CircularProgress aria-label="Loading the documents" /> : null}
      <TaskTable rows={items} loading={loading} loaded={jobs.isSuccess} onOpen={open} />
    </Stack>
  );
}
