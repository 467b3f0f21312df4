import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ROUTES, API_V1_ROUTES, routeKey } from '@loopdesk/contracts/routes.ts';
import type { AuditWriter } from './audit-writer.ts';
import type { Database } from './db/database.ts';
import { AppError } from './errors.ts';

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

/** How a route of the table touches patient data, and the status its success answers with. */
interface PatientDataRoute {
  readonly use: 'read' | 'write';
  /** The lowest success status the table declares (200 when it declares none). */
  readonly success: number;
  /** Whether its caller is known before the handler (staff token or API key, onRequest). */
  readonly guardedEarly: boolean;
}

/** Each route of the table that reads or writes patient data, by `METHOD path`. */
const PATIENT_DATA_ROUTES: ReadonlyMap<string, PatientDataRoute> = new Map(
  [...API_ROUTES, ...API_V1_ROUTES].flatMap((route) =>
    route.patientData === 'read' || route.patientData === 'write'
      ? [
          [
            routeKey(route),
            {
              use: route.patientData,
              success: Math.min(
                ...Object.keys(route.response ?? {})
                  .map(Number)
                  .filter((status) => status >= 200 && status < 300),
                200,
              ),
              guardedEarly: !('embedToken' in route.access),
            },
          ] as const,
        ]
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

/** A request's entry written while its route works, with the status it presumed. */
interface Presumption {
  readonly status: number;
  /** The row's id; undefined when the insert failed (logged). */
  readonly id: Promise<number | undefined>;
}

const presumptions = new WeakMap<FastifyRequest, Presumption>();

/**
 * The audit of patient data by route: every answer of a route the table marks `patientData:
 * 'read' | 'write'` adds one entry `patient-data.read` / `patient-data.write` (who: the user or
 * the API key; what: the route and its path parameters; when; outcome: success below 400, denied
 * for a 4xx, failure for a 5xx), in the database before the answer is sent. 401 and 403 from the
 * guard are audited as `request.refused` by the refusal hook already. The areas' own entries
 * (what was returned, what changed) come on top of it. An entry the database refuses is logged as
 * an error and the answer still goes out (as for every audit write of the request path).
 *
 * Where the writer `presumes` (PostgreSQL), the entry's insert starts when the route's handler
 * does (preHandler: the caller is known, the input valid), presuming the route's success status,
 * and runs on the audit lane beside the route's own statements: the answer waits for the longer
 * of the two instead of their sum. An answer with another status adds a correcting entry (the
 * same action with the true outcome and `details.corrects`, the presumed row's id) before it is
 * sent: the trail is append-only. `patient_data_audit` (migration 029) reads one entry per
 * request with its true outcome. Otherwise (PGlite) the entry is written once the status is
 * known. Either way through `writer`, which appends concurrent requests' entries together.
 */
export function registerPatientDataAudit(app: FastifyInstance, writer: AuditWriter): void {
  const routeOf = (request: FastifyRequest) => {
    const url = request.routeOptions.url;
    const route = url ? PATIENT_DATA_ROUTES.get(`${request.method} ${url}`) : undefined;
    return route && url ? { route, url } : undefined;
  };
  if (writer.presumes) {
    app.addHook('preHandler', (request, _reply, done) => {
      const found = routeOf(request);
      if (found?.route.guardedEarly) {
        const { route, url } = found;
        // After the handler's first statement is on its way: the insert's client work then
        // overlaps the wait for the route's answer instead of delaying its statement.
        const id = new Promise<void>((resolve) => setImmediate(resolve))
          .then(() =>
            writer.append(
              patientDataEntry(request, route.use, url, route.success),
              requestOrigin(request),
            ),
          )
          .then(
            (row) => row ?? undefined,
            (error: unknown) => {
              request.log.error({ err: error }, 'audit write failed');
              return undefined;
            },
          );
        presumptions.set(request, { status: route.success, id });
      }
      done();
    });
  }
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const found = routeOf(request);
    const status = reply.statusCode;
    if (!found) {
      return;
    }
    const { route, url } = found;
    const presumed = presumptions.get(request);
    const entry = () => patientDataEntry(request, route.use, url, status);
    let written: Promise<unknown>;
    if (presumed) {
      const id = await presumed.id;
      if (id !== undefined && presumed.status === status) {
        return;
      }
      // The presumed row stands corrected (or, when its insert failed, is written again with the
      // true outcome).
      const correcting = entry();
      written = writer.append(
        id === undefined
          ? correcting
          : { ...correcting, details: { ...correcting.details, corrects: id } },
        requestOrigin(request),
      );
    } else if (status === 401 || status === 403) {
      return;
    } else {
      written = writer.append(entry(), requestOrigin(request));
    }
    await written.catch((error: unknown) =>
      request.log.error({ err: error }, 'audit write failed'),
    );
  });
}
