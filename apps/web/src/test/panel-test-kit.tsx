import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobEventType, SubmissionType } from '@loopdesk/contracts/realtime.ts';
import { vi } from 'vitest';
import { setSession } from '../lib/auth/session-store.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { installFakeServer, makeUser, signedInRoutes, type FakeHandler } from './fake-server.ts';
import { ToastProvider } from '../components/toast-provider.tsx';
import { JobPanel } from '../workbench/components/job-panel.tsx';
import { STEP_GUARD_MS, stepClock } from '../workbench/hooks/use-step-guard.ts';

/** Test helpers of the job panels: one panel, a spy for its submissions, a fake server. */

export const JOB_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A patient turn with its ids (spec 1 §3 Message/turn). */
export function turn(content: string, entities: readonly unknown[] = []) {
  return {
    content,
    messageId: 'msg-1',
    userId: 'patient-9',
    metadata: { conversationId: 'conv-1', entities },
  };
}

/**
 * The technician reads every step before its submit key: each reading of the step guard's clock
 * is a little more than the guard later (issue 20). `hasty` keeps the clock still instead, so that
 * every submit key comes too soon.
 */
export function readEveryStep(hasty = false): void {
  let now = 0;
  vi.spyOn(stepClock, 'now').mockImplementation(() => (hasty ? now : (now += STEP_GUARD_MS + 1)));
}

/** Renders the panel of a `type` job holding `data`; `submit` records what it sends. */
export function renderPanel(
  type: JobEventType,
  data: Record<string, unknown>,
  options: { routes?: Record<string, FakeHandler>; busy?: boolean; hasty?: boolean } = {},
) {
  readEveryStep(options.hasty);
  const user = makeUser(['annotator', 'medical']);
  const fetchMock = installFakeServer({ ...signedInRoutes(user), ...options.routes });
  setSession({
    status: 'signed-in',
    accessToken: 'token-ann',
    expiresAt: Date.now() + 15 * 60_000,
    refreshedAt: Date.now(),
    user,
  });
  const sent: { type: SubmissionType; data: Record<string, unknown> }[] = [];
  const submit = vi.fn(
    (submissionType: SubmissionType, payload: Readonly<Record<string, unknown>>) => {
      sent.push({ type: submissionType, data: { ...payload } });
      return { ok: true as const, eventId: `event-${sent.length}` };
    },
  );
  const events = userEvent.setup();
  const job = { id: 'job-event-1', type, data: { jobId: JOB_ID, tenant: 'acme', ...data } };
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <JobPanel job={job} submit={submit} busy={options.busy ?? false} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { sent, submit, events, fetchMock };
}

export const messageRegion = () => screen.getByRole('region', { name: 'Message' });

/** Selects `extract` in the message the way a mouse drag does, then lets go of the button. */
export function select(extract: string) {
  const walker = document.createTreeWalker(messageRegion(), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent?.indexOf(extract) ?? -1;
    if (at >= 0) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + extract.length);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      fireEvent.mouseUp(messageRegion());
      return;
    }
  }
  throw new Error(`"${extract}" is not in the message`);
}

/** The menu items shown, as text (hotkey, label, category). */
export const menuItems = () =>
  screen.queryAllByRole('menuitem').map((item) => item.textContent ?? '');
