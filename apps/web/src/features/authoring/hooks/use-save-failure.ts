import { useCallback, useState } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { conflictOf } from '../api/authoring.ts';
import { conflictFrom, type Conflict } from '../model/conflict.ts';

/**
 * The failure of a save on an authoring screen: a 409 becomes the conflict shown above the work
 * (which stays on screen), anything else a toast.
 */
export function useSaveFailure(keepable: 'annotation' | 'none') {
  const toast = useToast();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const onFailure = useCallback(
    (error: unknown) => {
      const refusal = conflictOf(error);
      if (refusal) {
        setConflict(conflictFrom(refusal, keepable));
      } else {
        toast.error(errorMessage(error));
      }
    },
    [keepable, toast],
  );
  return { conflict, onFailure, clear: useCallback(() => setConflict(null), []) };
}
