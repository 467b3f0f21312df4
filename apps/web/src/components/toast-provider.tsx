import Alert from '@mui/material/Alert';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { TOAST_MS } from '@loopdesk/contracts/portal-routes.ts';
import { useMemo, useState, type ReactNode } from 'react';
import { ToastContext, type Toast, type ToastOptions } from './toast-context.ts';

interface ToastState {
  key: number;
  severity: 'success' | 'error';
  message: string;
  open: boolean;
  /** The job it is tied to: it closes when that job is replaced. */
  job: string | undefined;
}

/**
 * Holds the one visible toast; a new toast replaces the current one. A toast tied to a job
 * (`{ job }`) closes when `closeJob` is called for that job (docs/architecture.md "Toasts tied to
 * their job").
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastState | null>(null);

  const api = useMemo<Toast>(() => {
    const show = (severity: ToastState['severity'], message: string, options?: ToastOptions) =>
      setToast((current) => ({
        key: (current?.key ?? 0) + 1,
        severity,
        message,
        open: true,
        job: options?.job,
      }));
    return {
      success: (message, options) => show('success', message, options),
      error: (message, options) => show('error', message, options),
      closeJob: (id) =>
        setToast((current) =>
          current?.open && current.job === id ? { ...current, open: false } : current,
        ),
    };
  }, []);

  const close = (_event?: unknown, reason?: SnackbarCloseReason) => {
    // A click elsewhere on the page must not swallow an error before it is read.
    if (reason === 'clickaway') {
      return;
    }
    setToast((current) => (current ? { ...current, open: false } : current));
  };

  return (
    <ToastContext.Provider value={api}>
      {children}
      {toast ? (
        <Snackbar
          key={toast.key}
          open={toast.open}
          autoHideDuration={TOAST_MS}
          onClose={close}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
          slotProps={{ transition: { onExited: () => setToast(null) } }}
        >
          <Alert
            severity={toast.severity}
            variant="filled"
            onClose={() => close()}
            sx={{ width: '100%' }}
          >
            {toast.message}
          </Alert>
        </Snackbar>
      ) : null}
    </ToastContext.Provider>
  );
}
