import { useEffect } from 'react';
import { useToast } from '../../../components/toast-context.ts';

/** Shows `message` as an error toast when a load fails (spec 3 §8), once per failure. */
export function useLoadError(failed: boolean, message: string): void {
  const toast = useToast();
  useEffect(() => {
    if (failed) {
      toast.error(message);
    }
  }, [failed, message, toast]);
}
