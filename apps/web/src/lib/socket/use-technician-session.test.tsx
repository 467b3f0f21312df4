import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../components/toast-provider.tsx';
import { useErrorToast } from '../../components/use-error-toast.ts';
import { setSession } from '../auth/session-store.ts';
import { createQueryClient } from '../query-client.ts';
import { errorAnswer, installFakeServer, json, makeUser } from '../../test/fake-server.ts';
import { fakeWebSockets } from '../../test/fake-web-socket.ts';
import { RECONNECT_DELAY_MS } from './technician-socket.ts';
import {
  BUSY_MESSAGE,
  initialTechnicianSession,
  technicianSessionReducer,
  useTechnicianSession,
  type TechnicianJob,
  type TechnicianSessionAction,
  type TechnicianSessionState,
} from './use-technician-session.ts';

const JOB_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const job: TechnicianJob = {
  id: 'event-1',
  type: 'message.annotation.job',
  data: { jobId: JOB_ID, tenant: 'acme' },
};

describe('technician session reducer', () => {
  const on: TechnicianSessionState = { ...initialTechnicianSession, connection: 'on' };
  const holding: TechnicianSessionState = { ...on, session: 'activated', job };
  const busy: TechnicianSessionState = { ...holding, busy: true, submissionId: 'sub-1' };

  const cases: [string, TechnicianSessionState, TechnicianSessionAction, TechnicianSessionState][] =
    [
      [
        'the socket opens: on, still paused',
        initialTechnicianSession,
        { type: 'connection', status: 'on' },
        on,
      ],
      [
        'resume while paused: waiting',
        on,
        { type: 'resume-requested' },
        { ...on, session: 'waiting' },
      ],
      ['resume while holding a job keeps it', holding, { type: 'resume-requested' }, holding],
      [
        'the server announces waiting',
        { ...on, session: 'paused' },
        { type: 'announced', state: 'waiting' },
        { ...on, session: 'waiting' },
      ],
      [
        'a job arrives: activated with the job, not busy',
        { ...on, session: 'waiting' },
        { type: 'job', job },
        holding,
      ],
      ['submit: busy', holding, { type: 'submitted', eventId: 'sub-1' }, busy],
      [
        'the next state update clears busy and the finished job',
        busy,
        { type: 'announced', state: 'waiting' },
        { ...on, session: 'waiting' },
      ],
      [
        'the next job clears busy',
        busy,
        { type: 'job', job: { ...job, id: 'event-2' } },
        { ...holding, job: { ...job, id: 'event-2' } },
      ],
      [
        'activated announced before its job keeps busy cleared and the job',
        busy,
        { type: 'announced', state: 'activated' },
        holding,
      ],
      [
        'paused announced: the job goes back to the queue',
        holding,
        { type: 'announced', state: 'paused' },
        on,
      ],
      [
        'a closed connection: paused, job cleared, not busy',
        busy,
        { type: 'connection', status: 'closed' },
        { ...initialTechnicianSession, connection: 'closed' },
      ],
      [
        'turned off: paused, job cleared',
        holding,
        { type: 'connection', status: 'off' },
        initialTechnicianSession,
      ],
      [
        'the server refuses the pending submission: not busy, job kept',
        busy,
        { type: 'refused', eventId: 'sub-1' },
        holding,
      ],
      [
        'an error about another event leaves busy alone',
        busy,
        { type: 'refused', eventId: 'other' },
        busy,
      ],
      [
        'an error about no event leaves busy alone',
        busy,
        { type: 'refused', eventId: undefined },
        busy,
      ],
    ];

  it.each(cases)('%s', (_name, before, action, after) => {
    expect(technicianSessionReducer(before, action)).toEqual(after);
  });
});

describe('useTechnicianSession', () => {
  let fake: ReturnType<typeof fakeWebSockets>;

  beforeEach(() => {
    vi.useFakeTimers();
    fake = fakeWebSockets();
    setSession({
      status: 'signed-in',
      accessToken: 'token-ann',
      expiresAt: Date.now() + 15 * 60_000,
      refreshedAt: Date.now(),
      user: makeUser(['annotator']),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>{children}</ToastProvider>
      </QueryClientProvider>
    );
  }

  async function mount() {
    const view = renderHook(
      () => {
        const session = useTechnicianSession('federated', { WebSocket: fake.WebSocket });
        // As the screens do: the hook reports its errors, a toast shows them.
        useErrorToast(session.error);
        return session;
      },
      {
        wrapper,
      },
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    return view;
  }

  /** Plays the server: socket events, inside act (synchronous: the client handles them at once). */
  const server = (fn: () => void) => {
    act(fn);
  };

  it('opens the federated socket while mounted, paused, and closes it on unmount', async () => {
    const { result, unmount } = await mount();
    expect(fake.sockets).toHaveLength(1);
    expect(fake.last().url).toBe(`${location.origin.replace(/^http/, 'ws')}/ws/federated`);
    expect(fake.last().protocols).toEqual(['token-ann']);
    expect(result.current).toMatchObject({ status: 'off', state: 'paused', job: null });

    server(() => fake.last().accept());
    expect(result.current).toMatchObject({ status: 'on', state: 'paused' });
    expect(fake.last().types()).toEqual(['technician.session.pause']);

    unmount();
    expect(fake.last().closedWith?.code).toBe(1000);
    await act(() => vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 4));
    expect(fake.sockets).toHaveLength(1);
  });

  it('resume → waiting, a job arrives, submit adds its jobId and blocks a second submit', async () => {
    const { result } = await mount();
    server(() => fake.last().accept());

    act(() => result.current.resume());
    expect(fake.last().types()).toEqual([
      'technician.session.pause',
      'technician.session.activate',
    ]);
    expect(result.current.state).toBe('waiting');

    server(() => {
      fake
        .last()
        .receive('technician.session.activated', { state: 'activated', source: 'federated' });
      fake.last().receive('message.annotation.job', { jobId: JOB_ID, tenant: 'acme', text: 'hi' });
    });
    expect(result.current.state).toBe('activated');
    expect(result.current.job?.data).toEqual({ jobId: JOB_ID, tenant: 'acme', text: 'hi' });

    let first: ReturnType<typeof result.current.submit> | undefined;
    let second: ReturnType<typeof result.current.submit> | undefined;
    act(() => {
      // A double click: both before React re-renders.
      first = result.current.submit('message.annotation', { action: 'execute', entities: [] });
      second = result.current.submit('message.annotation', { action: 'execute', entities: [] });
    });
    expect(first).toMatchObject({ ok: true });
    expect(second).toEqual({ ok: false, error: BUSY_MESSAGE });
    expect(result.current.busy).toBe(true);
    expect(screen.getByText('Already processing previous submission.')).toBeInTheDocument();
    expect(result.current.error?.message).toBe(BUSY_MESSAGE);
    const submissions = fake
      .last()
      .events()
      .filter((e) => e.type === 'message.annotation');
    expect(submissions).toHaveLength(1);
    expect(submissions[0]?.data).toEqual({ action: 'execute', entities: [], jobId: JOB_ID });

    // The server completes the job and announces waiting: not busy, no job.
    server(() =>
      fake.last().receive('technician.session.waiting', { state: 'waiting', source: 'federated' }),
    );
    expect(result.current).toMatchObject({ state: 'waiting', job: null, busy: false });
  });

  it('sends dh.portal.hitl.event on the socket and posts it, as sent, to the events call; a failed post is only logged', async () => {
    const posted: unknown[] = [];
    let up = true;
    installFakeServer({
      'POST /internal/users/me/_events': (request) => {
        posted.push(request.body);
        return up
          ? json(202, { accepted: true })
          : errorAnswer(500, 'Internal Server Error', 'The events call failed.');
      },
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { result } = await mount();
    server(() => fake.last().accept());
    act(() => result.current.resume());
    const hold = (jobId: string) =>
      server(() => fake.last().receive('message.annotation.job', { jobId, tenant: 'acme' }));
    const portalEvents = () =>
      fake
        .last()
        .events()
        .filter((e) => e.type === 'dh.portal.hitl.event');

    hold(JOB_ID);
    act(() => {
      result.current.submit('dh.portal.hitl.event', {
        action: 'next',
        conversationId: 'conv-1',
        userId: 'patient-1',
      });
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(portalEvents()).toHaveLength(1);
    expect(portalEvents()[0]).toMatchObject({
      type: 'dh.portal.hitl.event',
      source: '/portal',
      datacontenttype: 'application/json',
      dataschema: expect.stringMatching(/\/schemas\/20200718\/quinn\.json$/),
      data: { action: 'next', conversationId: 'conv-1', userId: 'patient-1', jobId: JOB_ID },
    });
    // The same envelope, same id: the server takes whichever copy comes first.
    expect(posted).toEqual(portalEvents());

    // Other submissions only go on the socket.
    const second = '0f8fad5b-d9cb-469f-a165-70867728950f';
    hold(second);
    act(() => {
      result.current.submit('message.annotation', { action: 'execute', entities: [] });
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(posted).toHaveLength(1);

    // A failed post is only logged (spec 1 §8): no error for the technician.
    up = false;
    hold('0f8fad5b-d9cb-469f-a165-708677289510');
    act(() => {
      result.current.submit('dh.portal.hitl.event', { action: 'redirect', messageId: 'm-1' });
    });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(posted).toHaveLength(2);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^Publishing the portal event .* failed$/),
      expect.anything(),
    );
    expect(result.current.error).toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    warn.mockRestore();
  });

  it('shows the server error about a submission and lets the technician submit again', async () => {
    const { result } = await mount();
    server(() => {
      fake.last().accept();
      fake.last().receive('message.annotation.job', { jobId: JOB_ID, tenant: 'acme' });
    });
    let sent: ReturnType<typeof result.current.submit> | undefined;
    act(() => {
      sent = result.current.submit('message.annotation', {});
    });
    const eventId = sent?.ok ? sent.eventId : 'missing';
    server(() =>
      fake.last().receive('error', {
        message: 'The message.annotation data needs the jobId of the job you hold.',
        eventId,
        eventType: 'message.annotation',
      }),
    );
    expect(
      screen.getByText('The message.annotation data needs the jobId of the job you hold.'),
    ).toBeInTheDocument();
    expect(result.current.error?.message).toBe(
      'The message.annotation data needs the jobId of the job you hold.',
    );
    expect(result.current).toMatchObject({ busy: false, state: 'activated' });
  });

  it('a closed connection: paused, job cleared, the spec message, and back on after 500 ms', async () => {
    const { result } = await mount();
    server(() => {
      fake.last().accept();
      fake.last().receive('message.annotation.job', { jobId: JOB_ID, tenant: 'acme' });
    });
    expect(result.current.job).not.toBeNull();

    server(() => fake.last().drop(1006));
    expect(result.current).toMatchObject({ status: 'closed', state: 'paused', job: null });
    expect(screen.getByText('Websocket closed abnormally.')).toBeInTheDocument();
    expect(result.current.error).toEqual({ id: 1, message: 'Websocket closed abnormally.' });

    await act(() => vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS));
    expect(fake.sockets).toHaveLength(2);
    server(() => fake.last().accept());
    // Spec 1 §4: reopened sockets ask for paused; the technician resumes by hand.
    expect(result.current).toMatchObject({ status: 'on', state: 'paused' });
    expect(fake.last().types()).toEqual(['technician.session.pause']);
  });

  it('a duplicate session shows the spec message and ends the session: Resume does not reconnect', async () => {
    const { result } = await mount();
    server(() => {
      fake.last().accept();
      fake.last().drop(1008);
    });
    const message =
      'You already have a session open. Please close all sessions, or contact an administrator to force the termination of your sessions.';
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(result.current.ended).toBe(message);
    await act(() => vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 4));
    expect(fake.sockets).toHaveLength(1);

    // Spec 1 §4: close code 1008 means no reconnect, Resume included.
    act(() => result.current.resume());
    await act(() => vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 4));
    expect(fake.sockets).toHaveLength(1);
    expect(result.current).toMatchObject({ status: 'closed', state: 'paused' });
  });

  it("says 'Websocket is not open, please refresh.' when submitting on a closed socket", async () => {
    const { result } = await mount();
    server(() => {
      fake.last().accept();
      fake.last().receive('message.annotation.job', { jobId: JOB_ID, tenant: 'acme' });
    });
    // The socket stays open in the client's eyes until its close event; a send then fails.
    fake.last().readyState = 3;
    let sent: ReturnType<typeof result.current.submit> | undefined;
    act(() => {
      sent = result.current.submit('message.annotation', {});
    });
    expect(sent).toEqual({ ok: false, error: 'Websocket is not open, please refresh.' });
    expect(screen.getByText('Websocket is not open, please refresh.')).toBeInTheDocument();
    expect(result.current.busy).toBe(false);
  });

  it('reports each error anew, even the same message twice, and shows nothing itself', async () => {
    const { result } = renderHook(
      () => useTechnicianSession('federated', { WebSocket: fake.WebSocket }),
      { wrapper },
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.error).toBeNull();
    server(() => {
      fake.last().accept();
      fake.last().receive('error', { message: 'No.' });
    });
    const first = result.current.error;
    server(() => fake.last().receive('error', { message: 'No.' }));
    expect(first).toEqual({ id: 1, message: 'No.' });
    expect(result.current.error).toEqual({ id: 2, message: 'No.' });
    // Showing it is the screen's: without useErrorToast nothing is on the page.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('pause asks the server, which releases the job', async () => {
    const { result } = await mount();
    server(() => {
      fake.last().accept();
      fake.last().receive('message.annotation.job', { jobId: JOB_ID, tenant: 'acme' });
    });
    act(() => result.current.pause());
    expect(fake.last().types()).toEqual(['technician.session.pause', 'technician.session.pause']);
    server(() =>
      fake.last().receive('technician.session.paused', { state: 'paused', source: 'federated' }),
    );
    expect(result.current).toMatchObject({ state: 'paused', job: null });
  });

  it('stops when signed out instead of reconnecting', async () => {
    await mount();
    server(() => fake.last().accept());
    setSession({ status: 'signed-out' });
    server(() => fake.last().drop(1006));
    await act(() => vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 4));
    expect(fake.sockets).toHaveLength(1);
  });
});
