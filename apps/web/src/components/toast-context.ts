import { createContext, useContext } from 'react';

export interface Toast {
  readonly success: (message: string) => void;
  readonly error: (message: string) => void;
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
