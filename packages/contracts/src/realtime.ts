import { z } from 'zod';

/** The three technician sockets (ARCHITECTURE "Realtime work"). */
export const SOURCES = ['federated', 'exceptions', 'priority'] as const;
export const SessionSource = z.enum(SOURCES);
export type SessionSource = z.infer<typeof SessionSource>;

/** Technician session states, announced by the server (spec 1 §4). */
export const SessionState = z.enum(['paused', 'waiting', 'activated']);
export type SessionState = z.infer<typeof SessionState>;

/** Close code of a second session for the same technician and source (spec 1 §9). */
export const DUPLICATE_SESSION_CLOSE_CODE = 1008;
/** Reason sent with close code 1008 (spec 1 §8). */
export const DUPLICATE_SESSION_MESSAGE =
  'You already have a session open. Please close all sessions, or contact an administrator to force the termination of your sessions.';

/** Close code when an administrator closes a technician's session: no reconnect. */
export const ADMIN_CLOSE_CODE = 4000;
export const ADMIN_CLOSE_MESSAGE = 'Your session was closed by an administrator.';
/**
 * Close code when the sign-in session behind a socket ends (a logout, a refresh token reused, an
 * idle or absolute timeout): no reconnect, its token is refused. The spec names 1008 for a second
 * session only, and any other close is abnormal and reconnects (spec 1 §8, §9); a reconnect here
 * would be refused again and again, so this is a code of the private range (RFC 6455 §7.4.2).
 */
export const SESSION_ENDED_CLOSE_CODE = 4001;
export const SESSION_ENDED_MESSAGE = 'Your sign-in session has ended: sign in again.';

/** `source` of every portal event (spec 1 §3 "Event envelope"). */
export const PORTAL_SOURCE = '/portal';
/**
 * The data schemas named by spec 1 §7 ('quinn.json' in its 20200718 version, and an rpa schema),
 * as the paths where Loopdesk serves them. A frame's `dataschema` is the absolute URI (CloudEvents
 * 1.0 types it URI, RFC 3986 §4.3) of one of them at the server's public origin.
 */
export const DATASCHEMAS = {
  quinn: '/schemas/20200718/quinn.json',
  rpa: '/schemas/rpa.json',
} as const;
export type DataschemaName = keyof typeof DATASCHEMAS;

/** The data schema of a frame type: the rpa schema for RPA jobs and submissions, else quinn.json. */
export function dataschemaOf(type: string): DataschemaName {
  return type.startsWith('rpa.') || type.startsWith('robot-process-automation.') ? 'rpa' : 'quinn';
}

/** The `dataschema` of a frame of this type sent by or to the server at `origin`. */
export function dataschemaUri(origin: string, type: string): string {
  return `${origin.replace(/\/$/, '')}${DATASCHEMAS[dataschemaOf(type)]}`;
}

/** Server → portal job events, one per job type. */
export const JOB_EVENT_TYPES = [
  'message.annotation.job',
  'intent.classification.job',
  'intent.hpi.priority.job',
  'robot-process-automation.manual-step.job',
  'exception.job',
] as const;
export const JobEventType = z.enum(JOB_EVENT_TYPES);
export type JobEventType = z.infer<typeof JobEventType>;

/** Server → portal session announcements. */
export const SESSION_EVENT_TYPES = {
  paused: 'technician.session.paused',
  waiting: 'technician.session.waiting',
  activated: 'technician.session.activated',
} as const satisfies Record<SessionState, string>;

/** Where each technician socket is served, on the server and in the portal (ARCHITECTURE). */
export const SOCKET_PATHS = {
  federated: '/ws/federated',
  exceptions: '/ws/exceptions',
  priority: '/ws/priority',
} as const satisfies Record<SessionSource, string>;

/** Portal → server: requests to change state (spec 1 §7 outgoing). */
export const STATE_REQUESTS = {
  pause: 'technician.session.pause',
  activate: 'technician.session.activate',
} as const;
export const STATE_REQUEST_TYPES = [STATE_REQUESTS.pause, STATE_REQUESTS.activate] as const;

/** Heartbeat (spec 1 §7): the server sends 'ping', the portal answers 'pong'. */
export const PING_EVENT = 'ping';
export const PONG_EVENT = 'pong';
/** The server's answer to a frame it could not use: data `ErrorEventData`. */
export const ERROR_EVENT = 'error';

/** Portal → server: submissions that complete the job the technician holds (spec 1 §7). */
export const SUBMISSION_TYPES = [
  'message.annotation',
  'message.annotation.exception',
  'message.rephrase.question',
  'hpi.prioritised',
  'hpi.prioritised.exception',
  'rpa.robot.clear',
  'quinn.action.answer_quinn',
  'dh.portal.hitl.event',
] as const;
export const SubmissionType = z.enum(SUBMISSION_TYPES);
export type SubmissionType = z.infer<typeof SubmissionType>;

/** A CloudEvents 1.0 JSON envelope (spec 1 §3, ARCHITECTURE). */
export const CloudEvent = z.object({
  specversion: z.literal('1.0').default('1.0'),
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(200),
  source: z.string().min(1).max(200),
  time: z.string().optional(),
  datacontenttype: z.string().default('application/json'),
  dataschema: z.string().optional(),
  data: z.unknown().optional(),
});
export type CloudEvent = z.infer<typeof CloudEvent>;

/** `POST /internal/users/me/_events` answers 202 with this once the event is taken. */
export const EventAccepted = z.object({ accepted: z.literal(true) });
export type EventAccepted = z.infer<typeof EventAccepted>;

/** Data of a session announcement. */
export const SessionAnnouncement = z.object({ state: SessionState, source: SessionSource });
export type SessionAnnouncement = z.infer<typeof SessionAnnouncement>;

/**
 * Data of a job event: the job event data of spec 1 §3 as the assistant sent it, with the job's
 * id and tenant so the submission can name them.
 */
export const JobEventData = z.looseObject({
  jobId: z.uuid(),
  tenant: z.string(),
});
export type JobEventData = z.infer<typeof JobEventData>;

/**
 * Data of a submission: the payload of spec 1 §7 for its type plus the id of the job it answers.
 * The payload's own fields are checked by the workbench rules of each type.
 */
export const SubmissionData = z.looseObject({ jobId: z.uuid() });
export type SubmissionData = z.infer<typeof SubmissionData>;

/** Data of the server's `error` event: what went wrong with a frame, and the frame's id. */
export const ErrorEventData = z.object({
  message: z.string(),
  eventId: z.string().optional(),
  eventType: z.string().optional(),
});
export type ErrorEventData = z.infer<typeof ErrorEventData>;

/** Largest frame the server reads (bytes); larger frames get an error event. */
export const MAX_FRAME_BYTES = 256 * 1024;

/** `GET /internal/sessions/_summary` item (spec 3 §3 Session). */
export const SessionSummaryItem = z.object({
  technicianId: z.string(),
  state: SessionState,
  source: SessionSource,
  name: z.string(),
  connected: z.boolean(),
});
export const SessionSummary = z.object({ items: z.array(SessionSummaryItem) });
export type SessionSummary = z.infer<typeof SessionSummary>;

/** `GET /internal/sessions/_count` (spec 1 §7): connected sessions per kind. */
export const SessionCount = z.object({ federated: z.number().int(), exception: z.number().int() });
export type SessionCount = z.infer<typeof SessionCount>;

/** Answer of `GET /internal/users/{base64 id}/sessions/_close` and `/_remove` (spec 1 §7). */
export const SessionActionResult = z.object({
  technicianId: z.string(),
  action: z.enum(['closed', 'removed']),
});
export type SessionActionResult = z.infer<typeof SessionActionResult>;
