import type { AsyncTask, TaskParams } from '@loopdesk/contracts/async-jobs.ts';
import { useContext, useEffect, useState, type ReactNode } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { saveDraft } from '../api/drafts.ts';
import { createDraftStore, DraftContext, type DraftStore } from '../hooks/draft-store.ts';
import { useDraftDirty } from '../hooks/use-draft-state.ts';

export const LEAVE_TITLE = 'Leave this task?';
export const LEAVE_MESSAGE =
  'Your edits are kept as a draft: the task stays in My tasks on the dashboard, and opening it again restores them.';

/**
 * The draft of a task screen (issue 20 point 17): the fields the screen keeps with
 * `useDraftState` start from the task's draft and are written back to it as the user works.
 */
export function TaskDraftProvider({
  task,
  params,
  children,
}: {
  task: AsyncTask;
  params: TaskParams;
  children: ReactNode;
}) {
  const [store] = useState(() => createDraftStore(params, task.draft ?? {}, saveDraft));
  useEffect(
    () => () => {
      void store.flush();
    },
    [store],
  );
  return <DraftContext.Provider value={store}>{children}</DraftContext.Provider>;
}

/**
 * Asks before the user leaves a task with edits: a link, Back (in a data router) or closing the
 * tab. Leaving writes the draft first, so nothing is lost.
 */
export function LeaveGuard() {
  const store = useContext(DraftContext);
  const dirty = useDraftDirty(store);
  const dataRouter = useContext(UNSAFE_DataRouterContext);

  useEffect(() => {
    if (!dirty || !store) {
      return undefined;
    }
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      void store.flush();
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty, store]);

  return dataRouter && store ? <RouteLeaveGuard store={store} /> : null;
}

function RouteLeaveGuard({ store }: { store: DraftStore }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      store.dirty() && currentLocation.pathname !== nextLocation.pathname,
  );
  const blocked = blocker.state === 'blocked';
  return (
    <ConfirmDialog
      open={blocked}
      title={LEAVE_TITLE}
      message={LEAVE_MESSAGE}
      confirmLabel="Leave"
      onConfirm={() => {
        void store.flush().finally(() => blocker.proceed?.());
      }}
      onCancel={() => blocker.reset?.()}
    />
  );
}
