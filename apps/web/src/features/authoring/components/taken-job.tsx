import CircularProgress from '@mui/material/CircularProgress';
import { PATHS } from '@loopdesk/contracts/portal-routes.ts';
import { useEffect, type ComponentType } from 'react';
import { useNavigate, useParams } from 'react-router';
import { JobToasts } from '../../../components/job-toasts.tsx';
import { useToast, type Toast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { useTakenJob, type AuthoringJob } from '../api/authoring.ts';

/**
 * The job of the route's `:id`, taken (held) once, shown by `Screen`; one that cannot be taken is
 * a toast and the way back to the list (spec 2 §8 "Job select error: HTTP error toast and return
 * to the list").
 */
export function TakenJob({
  Screen,
}: {
  Screen: ComponentType<{ job: AuthoringJob; notify: Toast }>;
}) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const job = useTakenJob(id);
  useEffect(() => {
    if (job.isError) {
      toast.error(errorMessage(job.error));
      void navigate(PATHS['authoring-tasks']);
    }
  }, [job.isError, job.error, toast, navigate]);
  if (!job.data) {
    return <CircularProgress aria-label="Loading the job" sx={{ m: 2 }} />;
  }
  return (
    <JobToasts job={job.data.key}>
      <Screen key={job.data.key} job={job.data} notify={toast} />
    </JobToasts>
  );
}
