import type { FastifyRequest } from 'fastify';
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
