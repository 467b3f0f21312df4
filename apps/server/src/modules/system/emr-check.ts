import { sql } from 'kysely';
import type { EmrTestResult } from '@loopdesk/contracts/system.ts';
import type { Database } from '../../platform/db/database.ts';
import type { EmrServer } from '../../platform/config.ts';
import { AppError, notFound } from '../../platform/errors.ts';

export interface EmrCheckDeps {
  readonly db: Database;
  /** `EMR_SERVERS`: tenants not named use the built-in record store. */
  readonly servers: ReadonlyMap<string, EmrServer>;
  readonly timeoutMs: number;
}

/** Whether Loopdesk knows the tenant: a configuration, a patient or a conversation of it. */
async function knownTenant(db: Database, tenant: string): Promise<boolean> {
  const { rows } = await sql<{ known: boolean }>`
    select exists (select 1 from tenant_configurations where tenant = ${tenant})
        or exists (select 1 from consumers where tenant = ${tenant})
        or exists (select 1 from conversations where tenant = ${tenant}) as known`.execute(db);
  return rows[0]?.known === true;
}

/** The EMR the tenant uses, or a 404 saying why it has none. */
async function emrOf(
  deps: EmrCheckDeps,
  tenant: string,
): Promise<Exclude<EmrServer, { kind: 'none' }>> {
  const configured = deps.servers.get(tenant);
  if (configured?.kind === 'none') {
    throw notFound(`The tenant '${tenant}' has no EMR: EMR_SERVERS sets it to none.`);
  }
  if (configured) {
    return configured;
  }
  if (await knownTenant(deps.db, tenant)) {
    return { kind: 'builtin' };
  }
  throw notFound(
    `No EMR for the tenant '${tenant}': Loopdesk knows no such tenant (no configuration, patient or conversation) and EMR_SERVERS names none for it.`,
  );
}

const elapsed = (started: number) => Math.round(performance.now() - started);

/** The built-in record store answers when its patients of the tenant can be counted. */
async function checkBuiltin(db: Database, tenant: string): Promise<EmrTestResult> {
  const started = performance.now();
  try {
    await db
      .selectFrom('consumers')
      .select(sql<string>`count(*)::text`.as('n'))
      .where('tenant', '=', tenant)
      .executeTakeFirstOrThrow();
  } catch {
    throw new AppError(503, 'The built-in record store (the database) did not answer.');
  }
  return { status: 200, tenant, emr: 'builtin', tookMs: elapsed(started) };
}

/** Reads the FHIR server's CapabilityStatement (`GET [base]/metadata`) and reports its status. */
async function checkFhir(
  baseUrl: string,
  tenant: string,
  timeoutMs: number,
): Promise<EmrTestResult> {
  const url = `${baseUrl}/metadata`;
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Accept: 'application/fhir+json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new AppError(504, `The FHIR server at ${url} did not answer within ${timeoutMs} ms.`);
    }
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new AppError(
      502,
      `The FHIR server at ${url} could not be reached${cause ? ` (${cause})` : ''}.`,
    );
  }
  let fhirVersion: string | undefined;
  try {
    const body = (await response.json()) as { resourceType?: unknown; fhirVersion?: unknown };
    if (body.resourceType === 'CapabilityStatement' && typeof body.fhirVersion === 'string') {
      fhirVersion = body.fhirVersion;
    }
  } catch {
    // Not JSON: the status says what happened.
  }
  return {
    status: response.status,
    tenant,
    emr: 'fhir-r4',
    url,
    tookMs: elapsed(started),
    ...(fhirVersion ? { fhirVersion } : {}),
  };
}

/**
 * The EMR check (spec 3 §2 "System health"): reaches the tenant's EMR and reports the status it
 * answered with and the time taken. The built-in record store is the default; a FHIR R4 server
 * is asked for its `metadata`. A tenant without an EMR is a 404; a server that cannot be reached
 * is a 502, one that does not answer in time a 504.
 */
export async function checkEmr(deps: EmrCheckDeps, tenant: string): Promise<EmrTestResult> {
  const emr = await emrOf(deps, tenant);
  return emr.kind === 'builtin'
    ? checkBuiltin(deps.db, tenant)
    : checkFhir(emr.baseUrl, tenant, deps.timeoutMs);
}
