import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { API_ROUTES, API_V1_ROUTES, routeKey } from '@loopdesk/contracts/routes.ts';
import type { Database } from './db/database.ts';

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
 * Appends an entry outside any transaction of the caller, without waiting for the WAL to reach
 * the disk (`synchronous_commit = off` for this one statement): the row is in the database, seen
 * by every reader, before the call returns, and PostgreSQL itself flushes it within a few hundred
 * milliseconds. Only a crash of PostgreSQL in that window could lose it (never a crash of the
 * app). The per-route audit of patient data uses it: a read would otherwise wait for a disk flush
 * of its own on every call (bench/audit.ts). Never pass a transaction: the setting would last
 * until that transaction's commit.
 */
export async function recordAuditUnsynced(
  db: Database,
  entry: AuditEntry,
  origin: { ip: string | null; userAgent: string | null; requestId: string | null },
): Promise<void> {
  await sql`
    insert into audit_events (action, outcome, actor_id, actor_email, resource_type,
      resource_id, status_code, ip, user_agent, request_id, details)
    select ${entry.action}, ${entry.outcome}, ${entry.actorId ?? null}::uuid,
      ${entry.actorEmail ?? null}, ${entry.resourceType ?? null}, ${entry.resourceId ?? null},
      ${entry.statusCode ?? null}::integer, ${origin.ip}, ${origin.userAgent}, ${origin.requestId},
      ${JSON.stringify(entry.details ?? {})}::jsonb
    from (select set_config('synchronous_commit', 'off', true)) as unsynced`.execute(db);
}

/** Each route of the table that reads or writes patient data, by `METHOD path`. */
const PATIENT_DATA_ROUTES: ReadonlyMap<string, 'read' | 'write'> = new Map(
  [...API_ROUTES, ...API_V1_ROUTES].flatMap((route) =>
    route.patientData === 'read' || route.patientData === 'write'
      ? [[routeKey(route), route.patientData] as const]
      : [],
  ),
);

/** Whether a route (`METHOD path`) reads or writes patient data, by the route table. */
export const patientDataUseOf = (key: string) => PATIENT_DATA_ROUTES.get(key);

/** A parameter as the trail can store it: well-formed, without NUL, at most 200 characters. */
const storable = (value: unknown): string =>
  String(value)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replaceAll(String.fromCharCode(0), '\ufffd')
    .slice(0, 200);

/**
 * The audit of patient data by route: every answer of a route the table marks `patientData:
 * 'read' | 'write'` adds one entry `patient-data.read` / `patient-data.write` (who: the user or
 * the API key; what: the route and its path parameters; when; outcome: success below 400, denied
 * for a 4xx, failure for a 5xx), written before the answer is sent. 401 and 403 are audited as
 * `request.refused` by the refusal hook already. The areas' own entries (what was returned,
 * what changed) come on top of it.
 */
export function auditPatientDataHook(db: Database) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const url = request.routeOptions.url;
    const use = url ? PATIENT_DATA_ROUTES.get(`${request.method} ${url}`) : undefined;
    const status = reply.statusCode;
    if (!use || status === 401 || status === 403) {
      return;
    }
    const params = Object.fromEntries(
      Object.entries((request.params ?? {}) as Record<string, unknown>).map(([k, v]) => [
        k,
        storable(v),
      ]),
    );
    const apiKey = (request as { apiKey?: { name?: string } | null }).apiKey?.name;
    await recordAuditUnsynced(
      db,
      {
        action: `patient-data.${use}`,
        outcome: status < 400 ? 'success' : status < 500 ? 'denied' : 'failure',
        actorId: request.user?.id ?? null,
        actorEmail: request.user?.email ?? null,
        resourceType: 'route',
        resourceId: `${request.method} ${url ?? ''}`,
        statusCode: status,
        details: { params, ...(apiKey ? { apiKey: storable(apiKey) } : {}) },
      },
      requestOrigin(request),
    ).catch((error: unknown) => request.log.error({ err: error }, 'audit write failed'));
  };
}
