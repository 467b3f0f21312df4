import { useEffect, useRef } from 'react';
import { useToast } from './toast-context.ts';

/** An error a hook reports as state rather than showing it; a new `id` is a new error. */
export interface ReportedError {
  readonly id: number;
  readonly message: string;
}

/**
 * Shows each new error of a hook that reports errors in its return value (the technician
 * session) as an error toast, once: a re-render with the same error shows nothing again.
 */
export function useErrorToast(error: ReportedError | null): void {
  const toast = useToast();
  const shown = useRef<ReportedError | null>(null);
  useEffect(() => {
    if (error && error !== shown.current) {
      shown.current = error;
      toast.error(error.message);
    }
  }, [error, toast]);
}
