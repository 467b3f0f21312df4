import Alert from '@mui/material/Alert';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { TOAST_MS } from '@loopdesk/contracts/portal-routes.ts';
import { useMemo, useState, type ReactNode } from 'react';
import { ToastContext, type Toast } from './toast-context.ts';

interface ToastState {
  key: number;
  severity: 'success' | 'error';
  message: string;
  open: boolean;
}

/** Holds the one visible toast; a new toast replaces the current one. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastState | null>(null);

  const api = useMemo<Toast>(() => {
    const show = (severity: ToastState['severity'], message: string) =>
      setToast((current) => ({ key: (current?.key ?? 0) + 1, severity, message, open: true }));
    return {
      success: (message) => show('success', message),
      error: (message) => show('error', message),
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
