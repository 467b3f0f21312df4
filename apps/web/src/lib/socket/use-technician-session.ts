import { useQuery } from '@tanstack/react-query';
import {
  ErrorEventData,
  JobEventData,
  JobEventType,
  SESSION_EVENT_TYPES,
  type CloudEvent,
  type SessionSource,
  type SessionState,
  type SubmissionType,
} from '@loopdesk/contracts/realtime.ts';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { portalConfigQueryOptions } from '../portal-config.ts';
import { PORTAL_EVENT_TYPE, postPortalEvent } from './post-portal-event.ts';
import { socketToken } from './socket-token.ts';
import {
  ACTIVATE_REQUEST,
  DUPLICATE_SESSION_MESSAGE,
  ERROR_EVENT,
  NOT_OPEN_MESSAGE,
  PAUSE_REQUEST,
  TechnicianSocket,
  technicianSocketUrl,
  type ConnectionStatus,
  type SocketConstructor,
} from './technician-socket.ts';

/** Spec 1 §4 "Busy flag": a submit while the previous one is unanswered. */
export const BUSY_MESSAGE = 'Already processing previous submission.';
/** A submit with no job held (a screen shows its submit only with a job; this is a safety net). */
export const NO_JOB_MESSAGE = 'There is no job to submit: wait for the next job.';

/** The job the technician holds: the server's job event. */
export interface TechnicianJob {
  /** The event's id. */
  readonly id: string;
  readonly type: JobEventType;
  readonly data: JobEventData;
}

export interface TechnicianSessionState {
  readonly connection: ConnectionStatus;
  /** Spec 1 §4: starts paused. */
  readonly session: SessionState;
  readonly job: TechnicianJob | null;
  /** Spec 1 §4: set on submit, cleared on the next job or state update. */
  readonly busy: boolean;
  /** Id of the unanswered submission, so that a server error about it clears `busy`. */
  readonly submissionId: string | null;
}

export type TechnicianSessionAction =
  | { readonly type: 'connection'; readonly status: ConnectionStatus }
  | { readonly type: 'announced'; readonly state: SessionState }
  | { readonly type: 'job'; readonly job: TechnicianJob }
  | { readonly type: 'resume-requested' }
  | { readonly type: 'submitted'; readonly eventId: string }
  | { readonly type: 'refused'; readonly eventId: string | undefined };

export const initialTechnicianSession: TechnicianSessionState = {
  connection: 'off',
  session: 'paused',
  job: null,
  busy: false,
  submissionId: null,
};

const idle = { busy: false, submissionId: null } as const;

/** The technician session state machine (spec 1 §4). Pure: the hook feeds it socket events. */
export function technicianSessionReducer(
  state: TechnicianSessionState,
  action: TechnicianSessionAction,
): TechnicianSessionState {
  switch (action.type) {
    case 'connection':
      if (action.status === 'on') {
        return { ...state, connection: 'on' };
      }
      // Spec 1 §4: on a closed connection the state becomes paused and the job is cleared (the
      // server returns a closed socket's job to its queue).
      return { connection: action.status, session: 'paused', job: null, ...idle };
    case 'announced':
      return {
        ...state,
        session: action.state,
        // Paused releases the job; waiting follows a submit or a withdrawn job.
        job: action.state === 'activated' ? state.job : null,
        ...idle,
      };
    case 'job':
      return { ...state, session: 'activated', job: action.job, ...idle };
    case 'resume-requested':
      // Spec 1 §4: Resume sets waiting. A technician holding a job keeps it.
      return state.session === 'paused' ? { ...state, session: 'waiting' } : state;
    case 'submitted':
      return { ...state, busy: true, submissionId: action.eventId };
    case 'refused':
      // The server refused the pending submission (e.g. bad data): the technician may try again.
      return action.eventId !== undefined && action.eventId === state.submissionId
        ? { ...state, ...idle }
        : state;
  }
}

/**
 * A message for the technician (spec 1 §8): a socket drop, a refused event, a busy or impossible
 * submit. The screen shows it (as an error toast); `id` grows with every report, so the same
 * message twice is two errors.
 */
export interface SessionError {
  readonly id: number;
  readonly message: string;
}

/** What `submit` did: the sent event's id, or the error that was reported. */
export type SubmitResult =
  { readonly ok: true; readonly eventId: string } | { readonly ok: false; readonly error: string };

export interface TechnicianSession {
  readonly status: ConnectionStatus;
  readonly state: SessionState;
  readonly job: TechnicianJob | null;
  readonly busy: boolean;
  /**
   * The last error to show the technician, or null. The hook shows nothing itself (it sits below
   * the UI): each screen renders it, as a toast.
   */
  readonly error: SessionError | null;
  /**
   * Why the session ended for good, or null: the spec's message after close code 1008, a second
   * session (spec 1 §4, §8). It is also reported once in `error`; resume() does nothing after it
   * (no reconnect), so a screen shows it as a lasting banner and offers neither Reconnect nor Resume.
   */
  readonly ended: string | null;
  /** Connects if needed and asks for work (→ waiting). */
  resume(): void;
  /** Asks for paused; the server returns a held job to its queue. */
  pause(): void;
  /** Sends a submission for the held job (its jobId is added); an error is also reported in `error`. */
  submit(type: SubmissionType, data: Readonly<Record<string, unknown>>): SubmitResult;
  /** Sends another portal event (the exception session's requests); false when not open. */
  send(type: string, data: Readonly<Record<string, unknown>>): string | false;
  /** Closes the socket (the exception screen's Pause, spec 2 §4); resume() connects again. */
  disconnect(): void;
}

export interface TechnicianSessionOptions {
  /** Tests inject a fake; defaults to the browser's WebSocket. */
  WebSocket?: SocketConstructor;
  /**
   * Every other event of the socket (the exception session's conversation events, and the
   * server's `error` events, whose message is also reported in `error`).
   */
  onEvent?: (event: CloudEvent) => void;
  /** Connect on resume() only, not on mount (the exception screen, spec 2 §4). */
  lazy?: boolean;
}

function actionOf(event: CloudEvent): TechnicianSessionAction | null {
  const announced = (Object.entries(SESSION_EVENT_TYPES) as [SessionState, string][]).find(
    ([, type]) => type === event.type,
  );
  if (announced) {
    return { type: 'announced', state: announced[0] };
  }
  const jobType = JobEventType.safeParse(event.type);
  if (jobType.success) {
    const data = JobEventData.safeParse(event.data);
    if (!data.success) {
      console.info(`Ignored a ${event.type} event without a jobId and tenant`, event);
      return null;
    }
    return { type: 'job', job: { id: event.id, type: jobType.data, data: data.data } };
  }
  return null;
}

/**
 * A technician socket session (ARCHITECTURE "Web"): opens the `source` socket while mounted and
 * closes it on unmount; connection and session state, the held job and the busy flag come from
 * `technicianSessionReducer`. Socket and server errors are returned as `error` for the screen to show.
 */
export function useTechnicianSession(
  source: SessionSource,
  options: TechnicianSessionOptions = {},
): TechnicianSession {
  const config = useQuery({ ...portalConfigQueryOptions(), enabled: source === 'priority' });
  const priorityWsUrl = config.data?.priorityWsUrl;
  const url =
    source !== 'priority' || config.data
      ? technicianSocketUrl(source, window.location.href, priorityWsUrl)
      : null;
  const WebSocketCtor = options.WebSocket;
  const lazy = options.lazy === true;
  const onEventRef = useRef(options.onEvent);
  useEffect(() => {
    onEventRef.current = options.onEvent;
  });

  const [state, dispatch] = useReducer(technicianSessionReducer, initialTechnicianSession);
  // The same reducer run eagerly, so that two clicks before a re-render see each other (busy).
  const latest = useRef(state);
  const apply = useCallback((action: TechnicianSessionAction) => {
    latest.current = technicianSessionReducer(latest.current, action);
    dispatch(action);
  }, []);

  const [error, setError] = useState<SessionError | null>(null);
  const report = useCallback((message: string) => {
    setError((last) => ({ id: (last?.id ?? 0) + 1, message }));
  }, []);

  const [ended, setEnded] = useState<string | null>(null);
  const endedRef = useRef(false);

  const clientRef = useRef<TechnicianSocket | null>(null);
  /** Resume was asked for before the socket was open: ask once it opens. */
  const activateOnOpen = useRef(false);

  useEffect(() => {
    if (!url) {
      return undefined;
    }
    const client = new TechnicianSocket({
      url,
      getToken: socketToken,
      ...(WebSocketCtor ? { WebSocket: WebSocketCtor } : {}),
      listener: {
        onStatus: (status) => {
          apply({ type: 'connection', status });
          if (status === 'on' && activateOnOpen.current) {
            activateOnOpen.current = false;
            // The client has already sent the pause that spec 1 §4 asks for on open.
            if (client.send(ACTIVATE_REQUEST, {})) {
              apply({ type: 'resume-requested' });
            }
          } else if (status !== 'on') {
            activateOnOpen.current = false;
          }
        },
        onError: report,
        onSent: (event) => {
          // Spec 1 §7: dh.portal.hitl.event is also posted to the events call; a failure is
          // only logged (§8).
          if (event.type === PORTAL_EVENT_TYPE) {
            void postPortalEvent(event);
          }
        },
        onDuplicate: () => {
          endedRef.current = true;
          setEnded(DUPLICATE_SESSION_MESSAGE);
        },
        onEvent: (event) => {
          if (event.type === ERROR_EVENT) {
            const data = ErrorEventData.safeParse(event.data);
            const message = data.success ? data.data.message : 'The server refused an event.';
            report(message);
            apply({ type: 'refused', eventId: data.success ? data.data.eventId : undefined });
            onEventRef.current?.(event);
            return;
          }
          const action = actionOf(event);
          if (action) {
            apply(action);
          } else {
            onEventRef.current?.(event);
          }
        },
      },
    });
    clientRef.current = client;
    if (!lazy) {
      client.connect();
    }
    return () => {
      client.close();
      if (clientRef.current === client) {
        clientRef.current = null;
      }
      activateOnOpen.current = false;
    };
  }, [url, WebSocketCtor, apply, report, lazy]);

  const resume = useCallback(() => {
    const client = clientRef.current;
    // Spec 1 §4: after a second session's close (1008) there is no reconnect.
    if (!client || endedRef.current) {
      return;
    }
    if (client.status === 'on') {
      if (client.send(ACTIVATE_REQUEST, {})) {
        apply({ type: 'resume-requested' });
      }
      return;
    }
    activateOnOpen.current = true;
    client.connect();
  }, [apply]);

  const pause = useCallback(() => {
    const client = clientRef.current;
    // Not connected means paused already (spec 1 §4).
    if (client?.status === 'on') {
      client.send(PAUSE_REQUEST, {});
    }
  }, []);

  const submit = useCallback(
    (type: SubmissionType, data: Readonly<Record<string, unknown>>): SubmitResult => {
      const fail = (message: string): SubmitResult => {
        report(message);
        return { ok: false, error: message };
      };
      const current = latest.current;
      if (current.busy) {
        return fail(BUSY_MESSAGE);
      }
      if (!current.job) {
        return fail(NO_JOB_MESSAGE);
      }
      const client = clientRef.current;
      // The client reports NOT_OPEN_MESSAGE itself when its socket is not open.
      const eventId = client
        ? client.send(type, { ...data, jobId: current.job.data.jobId })
        : false;
      if (eventId === false) {
        if (!client) {
          report(NOT_OPEN_MESSAGE);
        }
        return { ok: false, error: NOT_OPEN_MESSAGE };
      }
      apply({ type: 'submitted', eventId });
      return { ok: true, eventId };
    },
    [apply, report],
  );

  const send = useCallback(
    (type: string, data: Readonly<Record<string, unknown>>): string | false => {
      const client = clientRef.current;
      if (!client) {
        report(NOT_OPEN_MESSAGE);
        return false;
      }
      return client.send(type, data);
    },
    [report],
  );

  const disconnect = useCallback(() => {
    activateOnOpen.current = false;
    clientRef.current?.close();
  }, []);

  return {
    status: state.connection,
    state: state.session,
    job: state.job,
    busy: state.busy,
    error,
    ended,
    resume,
    pause,
    submit,
    send,
    disconnect,
  };
}
