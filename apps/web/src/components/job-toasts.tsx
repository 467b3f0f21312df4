import { useEffect, useMemo, type ReactNode } from 'react';
import { ToastContext, useToast, type Toast } from './toast-context.ts';

/**
 * Ties the toasts of a job to it: a toast shown while the job is held closes when the job is
 * replaced (the next job, a pause, a closed socket). Call it in the component that is mounted
 * anew for each job, or pass the job's id as it changes.
 */
export function useJobToasts(job: string): void {
  const { closeJob } = useToast();
  useEffect(() => () => closeJob(job), [closeJob, job]);
}

/**
 * Everything below shows its toasts tied to `job` (`useToast()` inside adds `{ job }`), and they
 * close when the job is replaced: a job panel's validation messages never stay over the next job.
 */
export function JobToasts({ job, children }: { job: string; children: ReactNode }) {
  const toast = useToast();
  useJobToasts(job);
  const tied = useMemo<Toast>(
    () => ({
      success: (message, options) => toast.success(message, { job, ...options }),
      error: (message, options) => toast.error(message, { job, ...options }),
      closeJob: toast.closeJob,
    }),
    [toast, job],
  );
  return <ToastContext.Provider value={tied}>{children}</ToastContext.Provider>;
}
