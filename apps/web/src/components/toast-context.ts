import { createContext, useContext } from 'react';

/** What a toast may be tied to. */
export interface ToastOptions {
  /**
   * The job the toast is about (its event id): the toast closes when that job is replaced (see
   * {@link Toast.closeJob} and `JobToasts`), instead of staying over the next job.
   */
  readonly job?: string;
}

export interface Toast {
  readonly success: (message: string, options?: ToastOptions) => void;
  readonly error: (message: string, options?: ToastOptions) => void;
  /** Closes the visible toast if it is tied to the job `id`; any other toast stays. */
  readonly closeJob: (id: string) => void;
}

export const ToastContext = createContext<Toast | null>(null);

/** Shows a success or error toast at the bottom centre (spec 1 §2 Shell). */
export function useToast(): Toast {
  const toast = useContext(ToastContext);
  if (!toast) {
    throw new Error('useToast must be used inside <ToastProvider>.');
  }
  return toast;
}
