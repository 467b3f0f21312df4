import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ROUTES, API_V1_ROUTES, routeKey } from '@loopdesk/contracts/routes.ts';
import { AuditJournalUnavailable, type AuditJournal } from './audit-journal.ts';
import type { Database } from './db/database.ts';
import { AppError, errorBody } from './errors.ts';

/** One entry of the append-only audit trail: who, what, which record, when, from where, outcome. */
export interface AuditEntry {
  readonly action: string;
  readonly outcome: 'success' | 'denied' | 'failure';
  readonly actorId?: string | null;
  readonly actorEmail?: string | null;
  readonly resourceType?: string | null;
  readonly resourceId?: string | null;
  readonly statusCode?: number | null;
  readonly details?: Record<string, unknown>;
}

/** Where a request came from, for the audit trail. */
export function requestOrigin(request: FastifyRequest): {
  ip: string;
  userAgent: string | null;
  requestId: string;
} {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    requestId: String(request.id),
  };
}

/** Appends an entry to the audit trail. Every area records its events through this helper. */
export async function recordAudit(
  db: Database,
  entry: AuditEntry,
  origin: { ip: string | null; userAgent: string | null; requestId: string | null },
): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      action: entry.action,
      outcome: entry.outcome,
      actor_id: entry.actorId ?? null,
      actor_email: entry.actorEmail ?? null,
      resource_type: entry.resourceType ?? null,
      resource_id: entry.resourceId ?? null,
      status_code: entry.statusCode ?? null,
      ip: origin.ip,
      user_agent: origin.userAgent,
      request_id: origin.requestId,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

/**
 * Runs `work`; a refusal (an AppError) is recorded by `record` with its outcome (`denied` for a
 * 403, `failure` otherwise) before it is thrown on. The areas wrap each audited action in it so
 * that a refused action leaves its entry as surely as a successful one.
 */
export async function audited<T>(
  work: () => Promise<T>,
  record: (error: AppError, outcome: 'denied' | 'failure') => Promise<void>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) {
      await record(error, error.statusCode === 403 ? 'denied' : 'failure');
    }
    throw error;
  }
}

/** Each route of the table that reads or writes patient data, by `METHOD path`. */
const PATIENT_DATA_ROUTES: ReadonlyMap<string, { readonly use: 'read' | 'write' }> = new Map(
  [...API_ROUTES, ...API_V1_ROUTES].flatMap((route) =>
    route.patientData === 'read' || route.patientData === 'write'
      ? [[routeKey(route), { use: route.patientData }] as const]
      : [],
  ),
);

/** Whether a route (`METHOD path`) reads or writes patient data, by the route table. */
export const patientDataUseOf = (key: string) => PATIENT_DATA_ROUTES.get(key)?.use;

/** A parameter as the trail can store it: well-formed, without NUL, at most 200 characters. */
const storable = (value: unknown): string =>
  String(value)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replaceAll(String.fromCharCode(0), '\ufffd')
    .slice(0, 200);

type Outcome = AuditEntry['outcome'];

/** The outcome of an answer: success below 400, denied for a 4xx, failure for a 5xx. */
const outcomeOf = (status: number): Outcome =>
  status < 400 ? 'success' : status < 500 ? 'denied' : 'failure';

/** The patient-data entry of a request answered with `status`. */
function patientDataEntry(
  request: FastifyRequest,
  use: 'read' | 'write',
  url: string,
  status: number,
): AuditEntry {
  const params = Object.fromEntries(
    Object.entries((request.params ?? {}) as Record<string, unknown>).map(([k, v]) => [
      k,
      storable(v),
    ]),
  );
  const apiKey = (request as { apiKey?: { name?: string } | null }).apiKey?.name;
  return {
    action: `patient-data.${use}`,
    outcome: outcomeOf(status),
    actorId: request.user?.id ?? null,
    actorEmail: request.user?.email ?? null,
    resourceType: 'route',
    resourceId: `${request.method} ${url}`,
    statusCode: status,
    details: { params, ...(apiKey ? { apiKey: storable(apiKey) } : {}) },
  };
}

/** The 503's message when a request cannot be audited: what the operator must fix. */
const unauditedMessage = (error: unknown) =>
  error instanceof AuditJournalUnavailable
    ? `${error.message} The request was not answered because it could not be audited.`
    : 'The request could not be audited, so it was not answered; try again later.';

/**
 * The audit of patient data by route: every answer of a route the table marks `patientData:
 * 'read' | 'write'` adds one entry `patient-data.read` / `patient-data.write` (who: the user or
 * the API key; what: the route and its path parameters; when; outcome: success below 400, denied
 * for a 4xx, failure for a 5xx, with the answer's true status). 401 and 403 are audited as
 * `request.refused` by the refusal hook already. The areas' own entries (what was returned, what
 * changed) come on top of it.
 *
 * The entry is appended to the node's audit journal (platform/audit-journal.ts) before the answer
 * is sent: a synchronous write of one line, durable against a crash of the process; the journal's
 * flusher moves it into `audit_events` within AUDIT_JOURNAL_FLUSH_MS. When the journal cannot
 * take it (its disk full, its folder unwritable, the database down long enough to fill
 * AUDIT_JOURNAL_MAX_BYTES), the answer is replaced by a 503: no answer leaves without its entry.
 */
export function registerPatientDataAudit(app: FastifyInstance, journal: AuditJournal): void {
  // A route that changes patient data is refused before its work when its entry could not be
  // written now, so that the 503 changes nothing.
  app.addHook('preHandler', (request, reply, done) => {
    const url = request.routeOptions.url;
    if (url && PATIENT_DATA_ROUTES.get(`${request.method} ${url}`)?.use === 'write') {
      try {
        journal.check();
      } catch (error) {
        request.log.error({ err: error }, 'audit journal unavailable');
        void reply
          .code(503)
          .header('retry-after', '5')
          .send(errorBody(503, unauditedMessage(error)));
        return;
      }
    }
    done();
  });
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    const url = request.routeOptions.url;
    const route = url ? PATIENT_DATA_ROUTES.get(`${request.method} ${url}`) : undefined;
    const status = reply.statusCode;
    if (!route || !url || status === 401 || status === 403) {
      done(null, payload);
      return;
    }
    try {
      journal.append(patientDataEntry(request, route.use, url, status), requestOrigin(request));
      done(null, payload);
    } catch (error) {
      request.log.error({ err: error }, 'audit write failed');
      void reply.code(503).header('content-type', 'application/json; charset=utf-8');
      void reply.header('retry-after', '5');
      done(null, JSON.stringify(errorBody(503, unauditedMessage(error))));
    }
  });
}
