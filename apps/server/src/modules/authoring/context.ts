import type { Transaction } from 'kysely';
import {
  PORTAL_SYSTEM,
  type AnnotationSet,
  type DataPreparationJob,
  type DataPreparationStatus,
} from '@loopdesk/contracts/data-preparation.ts';
import {
  jobTypeOf,
  type AuthoringHolder,
  type AuthoringJob,
} from '@loopdesk/contracts/routes/authoring.ts';
import { canAccess, type Privilege, type Role } from '@loopdesk/contracts/privileges.ts';
import { audited as auditedWork, recordAudit, type requestOrigin } from '../../platform/audit.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';
import type { KnowledgeRevisions } from '../knowledge/revisions.ts';
import { conceptLookup, type ConceptLookup } from './annotations.ts';
import { createAuthoringRepository, type AuthoringRow } from './repository.ts';
import { annotationsOf, draftOf, liveHolder, reviewOf, sourceOf, textOf, umlsOf } from './state.ts';

export type Origin = ReturnType<typeof requestOrigin>;

export interface Actor {
  readonly id: string;
  readonly email: string | null;
  readonly roles: readonly Role[];
}

/**
 * A 409 that carries the job as it is now (a version conflict, a wrong status, someone else's
 * hold), so the screen keeps its own copy and shows what changed.
 */
export class AuthoringConflictError extends AppError {
  constructor(
    message: string,
    readonly current: AuthoringJob,
    readonly holder?: AuthoringHolder,
  ) {
    super(409, message);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AuthoringDeps {
  db: Database;
  knowledge: Knowledge;
  revisions: KnowledgeRevisions;
  leaseMs: number;
}

/**
 * What every verb of authoring shares: the audit, the job as the screen sees it, and the checks a
 * change passes (found, four eyes, nobody else's hold, the status, the version).
 */
export function createAuthoringContext(deps: AuthoringDeps) {
  const { db, knowledge } = deps;
  const repo = createAuthoringRepository(db);

  const auditActor = (actor: Actor) => ({
    actorId: UUID.test(actor.id) ? actor.id : null,
    actorEmail: actor.email,
  });

  const audit = (
    executor: Database | Transaction<DB>,
    action: string,
    actor: Actor,
    resourceId: string | null,
    origin: Origin,
    outcome: 'success' | 'denied' | 'failure' = 'success',
    details: Record<string, unknown> = {},
    statusCode: number | null = null,
  ) =>
    recordAudit(
      executor,
      {
        action: `authoring.${action}`,
        outcome,
        ...auditActor(actor),
        resourceType: 'data-preparation-document',
        resourceId,
        statusCode,
        details,
      },
      origin,
    );

  /** Runs `work`; a refusal is audited with its status (and fields) before it is thrown on. */
  const audited = <T>(
    action: string,
    actor: Actor,
    resourceId: string | null,
    origin: Origin,
    work: () => Promise<T>,
  ): Promise<T> =>
    auditedWork(work, (error, outcome) =>
      audit(
        db,
        action,
        actor,
        resourceId,
        origin,
        outcome,
        { message: error.message, ...(error.details ? { fields: error.details.length } : {}) },
        error.statusCode,
      ),
    );

  const person = (id: string | null, emails: Map<string, string>) =>
    id ? { userId: id, email: emails.get(id) ?? null } : null;

  const holderOf = (row: AuthoringRow, emails: Map<string, string>): AuthoringHolder | null => {
    const holder = liveHolder(row);
    return holder && row.lease_expires_at
      ? {
          userId: holder,
          email: emails.get(holder) ?? null,
          purpose: row.hold_purpose ?? 'annotation',
          until: row.lease_expires_at.toISOString(),
        }
      : null;
  };

  const documentConcept = (
    job: DataPreparationJob,
    lookup: ConceptLookup = conceptLookup(knowledge),
  ) => {
    const umls = umlsOf(job);
    if (!umls) {
      return { entry: null, concept: undefined };
    }
    return { entry: umls, concept: lookup.resolve(umls.code) };
  };

  async function view(
    row: AuthoringRow,
    executor: Database | Transaction<DB> = db,
  ): Promise<AuthoringJob> {
    const review = reviewOf(row.job);
    const emails = await repo.emails(
      [row.lease_holder, row.annotated_by].filter((id): id is string => id !== null),
      executor,
    );
    const { entry, concept } = documentConcept(row.job);
    const draft = draftOf(row.job);
    return {
      key: row.key,
      code: row.code,
      displayName: row.job.displayName,
      source: sourceOf(row.job),
      status: row.status,
      jobType: jobTypeOf(row.status),
      provenance: row.job.provenance,
      preparedText: textOf(row),
      documentConcept: entry
        ? {
            cui: entry.code,
            display: entry.display || concept?.canonicalName || entry.code,
            conceptId: concept?.id ?? null,
            class: concept?.class ?? null,
          }
        : null,
      annotations: annotationsOf(row.job),
      annotationsDraft: draft,
      draftRestorable: draft?.provenance.system === PORTAL_SYSTEM,
      version: row.annotation_version,
      holder: holderOf(row, emails),
      annotatedBy: person(row.annotated_by, emails),
      review,
    };
  }

  async function found(key: string, trx: Database | Transaction<DB> = db, lock = false) {
    const row = await repo.find(key, trx, lock);
    if (!row) {
      throw notFound(`No authoring job with the id '${key}'.`);
    }
    return row;
  }

  const may = (actor: Actor, privilege: Privilege) =>
    canAccess(actor.roles, { anyOf: [privilege] });

  const fourEyes = (row: AuthoringRow, actor: Actor) => {
    if (row.annotators.includes(actor.id)) {
      throw forbidden(
        `You annotated '${row.job.displayName}', so you cannot review it: another reviewer must (four eyes).`,
      );
    }
  };

  /** Someone else's live hold: 409 naming them and what they hold it for. */
  async function notHeldByOther(row: AuthoringRow, actor: Actor, trx: Transaction<DB>) {
    const holder = liveHolder(row);
    if (holder && holder !== actor.id) {
      const current = await view(row, trx);
      const who = current.holder?.email ?? 'another user';
      throw new AuthoringConflictError(
        `${who} is ${row.hold_purpose === 'review' ? 'reviewing' : 'annotating'} '${row.job.displayName}' (held until ${current.holder?.until ?? 'soon'}): nothing was saved; open another job or try again later.`,
        current,
        current.holder ?? undefined,
      );
    }
  }

  async function inStatus(
    row: AuthoringRow,
    allowed: readonly DataPreparationStatus[],
    what: string,
    trx: Transaction<DB>,
  ) {
    if (!allowed.includes(row.status)) {
      throw new AuthoringConflictError(
        `'${row.job.displayName}' is in status ${row.status}, so it cannot be ${what} (only in ${allowed.join(' or ')}). Reload the job to see where it is.`,
        await view(row, trx),
      );
    }
  }

  async function sameVersion(row: AuthoringRow, version: number, trx: Transaction<DB>) {
    if (row.annotation_version !== version) {
      throw new AuthoringConflictError(
        `'${row.job.displayName}' was saved by someone else since you opened it (version ${row.annotation_version}, yours ${version}): nothing of yours was saved. Your copy is still on your screen; compare it with the current annotations (in 'current') and save again.`,
        await view(row, trx),
      );
    }
  }

  const contextOf = (
    row: AuthoringRow,
    complete: boolean,
    base: string,
    lookup: ConceptLookup,
  ) => ({ text: textOf(row), lookup, complete, base });

  const provenanceOf = (set: { provenance: AnnotationSet['provenance'] }) => set.provenance;

  return {
    ...deps,
    repo,
    audit,
    audited,
    holderOf,
    documentConcept,
    view,
    found,
    may,
    fourEyes,
    notHeldByOther,
    inStatus,
    sameVersion,
    contextOf,
    provenanceOf,
  };
}

export type AuthoringContext = ReturnType<typeof createAuthoringContext>;
