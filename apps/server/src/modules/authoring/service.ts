import type { Transaction } from 'kysely';
import {
  CLASSIFICATION_SYSTEMS,
  PORTAL_SYSTEM,
  AnnotationSet,
  type DataPreparationJob,
  type DataPreparationStatus,
} from '@loopdesk/contracts/data-preparation.ts';
import {
  AUTHORING_LIST_STATUSES,
  AUTHORING_MESSAGES,
  JOB_TYPE_OF_STATUS,
  jobTypeOf,
  type AnnotatedEntity,
  type AnnotatedRelationship,
  type AnnotationReview,
  type AuthoringHolder,
  type AuthoringJob,
  type AuthoringJobSummary,
  type AuthoringJobType,
  DraftSet,
  type ReviewAnnotationsBody,
  type SaveDraftBody,
  type SubmitAnnotationsBody,
} from '@loopdesk/contracts/routes/authoring.ts';
import { canAccess, type Privilege, type Role } from '@loopdesk/contracts/privileges.ts';
import type { z } from 'zod';
import { audited as auditedWork, recordAudit, type requestOrigin } from '../../platform/audit.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';
import type { KnowledgeRevisions } from '../knowledge/revisions.ts';
import {
  annotatedOf,
  checkSet,
  conceptLookup,
  dataOf,
  rowOf,
  unlinkedReason,
  type ConceptLookup,
  type Detail,
} from './annotations.ts';
import { createAuthoringRepository, type AuthoringRow } from './repository.ts';
import { documentWriteBack } from './write-back.ts';

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

type DraftInput = z.output<typeof SaveDraftBody>;
type SubmitInput = z.output<typeof SubmitAnnotationsBody>;
type ReviewInput = z.output<typeof ReviewAnnotationsBody>;

const ANNOTATABLE: readonly DataPreparationStatus[] = ['DOCUMENT_APPROVED', 'ANNOTATED_DRAFT'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const liveHolder = (row: AuthoringRow): string | null =>
  row.lease_holder !== null &&
  row.lease_expires_at !== null &&
  row.lease_expires_at.getTime() > Date.now()
    ? row.lease_holder
    : null;

const sourceOf = (job: DataPreparationJob): string | null =>
  job.source ?? job.provenance.find((p) => p.source.trim())?.source ?? null;

const umlsOf = (job: DataPreparationJob) =>
  job.classification.find((c) => c.system === CLASSIFICATION_SYSTEMS.umls) ?? null;

const textOf = (row: AuthoringRow): string => row.job.preparedText ?? row.extracted_text;

// A stored set that does not have the shape (written before these calls existed) reads as none
// rather than failing the whole job.
const draftOf = (job: DataPreparationJob): DraftSet | null => {
  const parsed = DraftSet.safeParse(job.annotationsDraft);
  return parsed.success ? parsed.data : null;
};
const annotationsOf = (job: DataPreparationJob): AnnotationSet | null => {
  const parsed = AnnotationSet.safeParse(job.annotations);
  return parsed.success ? parsed.data : null;
};
const reviewOf = (job: DataPreparationJob): AnnotationReview | null =>
  (job as { annotationReview?: AnnotationReview | null }).annotationReview ?? null;

function badSet(check: { problems: Detail[]; incomplete: Detail[] }): AppError | null {
  if (check.problems.length > 0) {
    const details = [...check.problems, ...check.incomplete];
    return badRequest(
      `The annotations cannot be saved: ${check.problems
        .slice(0, 5)
        .map((d) => `${d.path} ${d.message}`)
        .join(
          '; ',
        )}${check.problems.length > 5 ? ` (and ${check.problems.length - 5} more)` : ''}.`,
      details,
    );
  }
  if (check.incomplete.length > 0) {
    return badRequest(AUTHORING_MESSAGES.incomplete, check.incomplete);
  }
  return null;
}

/**
 * The authoring side of guideline documents (spec 2 §4 "Authoring job status mapping", issue 13):
 * holding a job, draft, submit and review of its annotations, each a new version of the job, and
 * the approved annotations written to the knowledge base. Every read and write is audited.
 */
export function createAuthoringService(deps: {
  db: Database;
  knowledge: Knowledge;
  revisions: KnowledgeRevisions;
  leaseMs: number;
}) {
  const { db, knowledge, revisions, leaseMs } = deps;
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
    repo,

    /** The 'Authoring Tasks' table. */
    async list(
      jobTypes: readonly AuthoringJobType[] | undefined,
      actor: Actor,
      origin: Origin,
    ): Promise<AuthoringJobSummary[]> {
      const statuses = AUTHORING_LIST_STATUSES.filter(
        (status) => !jobTypes || jobTypes.includes(JOB_TYPE_OF_STATUS[status]),
      );
      const rows = await repo.list(statuses);
      const emails = await repo.emails(rows.flatMap((row) => liveHolder(row) ?? []));
      await audit(db, 'list.read', actor, null, origin, 'success', {
        jobTypes: jobTypes ?? 'all',
        count: rows.length,
      });
      return rows.map((row) => ({
        key: row.key,
        code: row.code,
        displayName: row.job.displayName,
        source: sourceOf(row.job),
        status: row.status,
        jobType: jobTypeOf(row.status) ?? 'annotation',
        holder: holderOf(row, emails),
        updatedOn: row.updated_at.toISOString(),
      }));
    },

    async get(key: string, actor: Actor, origin: Origin): Promise<AuthoringJob> {
      return audited('job.read', actor, key, origin, async () => {
        const job = await view(await found(key));
        await audit(db, 'job.read', actor, key, origin, 'success', {
          status: job.status,
          version: job.version,
        });
        return job;
      });
    },

    /** Holds the job to annotate it, or to review it (four eyes). */
    async take(key: string, actor: Actor, origin: Origin): Promise<AuthoringJob> {
      return audited('job.taken', actor, key, origin, () =>
        db.transaction().execute(async (trx) => {
          const row = await found(key, trx, true);
          let purpose: 'annotation' | 'review';
          if (ANNOTATABLE.includes(row.status)) {
            purpose = 'annotation';
            if (!may(actor, 'jobs:annotation:perform')) {
              throw forbidden(
                'To annotate a document you need the privilege jobs:annotation:perform.',
              );
            }
          } else if (row.status === 'ANNOTATED_FOR_REVIEW') {
            purpose = 'review';
            if (!may(actor, 'jobs:annotation:review')) {
              throw forbidden(
                'To review annotations you need the privilege jobs:annotation:review.',
              );
            }
            fourEyes(row, actor);
          } else {
            throw new AuthoringConflictError(
              `'${row.job.displayName}' is in status ${row.status}: there is nothing to annotate or review in it.`,
              await view(row, trx),
            );
          }
          await notHeldByOther(row, actor, trx);
          await repo.hold(key, actor.id, purpose, leaseMs, trx);
          await audit(trx, 'job.taken', actor, key, origin, 'success', { purpose });
          return view(await found(key, trx), trx);
        }),
      );
    },

    /** Lets go of a job the caller holds; anything else stays as it is. */
    async release(key: string, actor: Actor, origin: Origin): Promise<AuthoringJob> {
      return audited('job.released', actor, key, origin, () =>
        db.transaction().execute(async (trx) => {
          const row = await found(key, trx, true);
          const held = row.lease_holder === actor.id;
          if (held) {
            await repo.release(key, trx);
          }
          await audit(trx, 'job.released', actor, key, origin, 'success', { held });
          return view(await found(key, trx), trx);
        }),
      );
    },

    /** SAVE AS DRAFT: status ANNOTATED_DRAFT with the draft, the next version. */
    async saveDraft(
      key: string,
      body: DraftInput,
      actor: Actor,
      origin: Origin,
    ): Promise<AuthoringJob> {
      return audited('draft.saved', actor, key, origin, () =>
        db.transaction().execute(async (trx) => {
          const row = await found(key, trx, true);
          await inStatus(row, ANNOTATABLE, 'annotated', trx);
          await notHeldByOther(row, actor, trx);
          await sameVersion(row, body.version, trx);
          const lookup = conceptLookup(knowledge);
          const bad = badSet(
            checkSet(body.annotations, contextOf(row, false, 'body.annotations', lookup)),
          );
          if (bad) {
            throw bad;
          }
          const draft: DraftSet = {
            entities: body.annotations.entities,
            relationships: body.annotations.relationships,
            provenance: provenanceOf(body.annotations),
          };
          const version = row.annotation_version + 1;
          await repo.write(
            key,
            {
              status: 'ANNOTATED_DRAFT',
              job: { ...row.job, status: 'ANNOTATED_DRAFT', annotationsDraft: draft },
              version,
              annotator: actor.id,
            },
            trx,
          );
          await audit(trx, 'draft.saved', actor, key, origin, 'success', {
            from: row.status,
            to: 'ANNOTATED_DRAFT',
            version,
            entities: draft.entities.length,
            relationships: draft.relationships.length,
            system: draft.provenance.system,
          });
          return view(await found(key, trx), trx);
        }),
      );
    },

    /** SUBMIT DOCUMENT: status ANNOTATED_FOR_REVIEW with the annotations, the draft removed. */
    async submit(
      key: string,
      body: SubmitInput,
      actor: Actor,
      origin: Origin,
    ): Promise<AuthoringJob> {
      return audited('annotations.submitted', actor, key, origin, () =>
        db.transaction().execute(async (trx) => {
          const row = await found(key, trx, true);
          await inStatus(row, ANNOTATABLE, 'submitted', trx);
          await notHeldByOther(row, actor, trx);
          await sameVersion(row, body.version, trx);
          const lookup = conceptLookup(knowledge);
          const bad = badSet(
            checkSet(body.annotations, contextOf(row, true, 'body.annotations', lookup)),
          );
          if (bad) {
            throw bad;
          }
          const annotations: AnnotationSet = {
            entities: body.annotations.entities.map((entity) => dataOf(entity, lookup)),
            relationships: body.annotations.relationships.map(rowOf),
            provenance: provenanceOf(body.annotations),
          };
          const version = row.annotation_version + 1;
          await repo.write(
            key,
            {
              status: 'ANNOTATED_FOR_REVIEW',
              job: {
                ...row.job,
                status: 'ANNOTATED_FOR_REVIEW',
                annotations,
                annotationsDraft: null,
              },
              version,
              annotator: actor.id,
              annotatedBy: actor.id,
            },
            trx,
          );
          await audit(trx, 'annotations.submitted', actor, key, origin, 'success', {
            from: row.status,
            to: 'ANNOTATED_FOR_REVIEW',
            version,
            entities: annotations.entities.length,
            relationships: annotations.relationships.length,
          });
          return view(await found(key, trx), trx);
        }),
      );
    },

    /**
     * The review: a decision on every entity and relationship, then approve (ANNOTATION_APPROVED,
     * the knowledge base revised in the same transaction) or return with a comment
     * (ANNOTATED_DRAFT, the reviewed set as the draft).
     */
    async review(
      key: string,
      body: ReviewInput,
      actor: Actor,
      origin: Origin,
    ): Promise<AuthoringJob> {
      let revised = false;
      const job = await audited('annotations.reviewed', actor, key, origin, () =>
        db.transaction().execute(async (trx) => {
          const row = await found(key, trx, true);
          await inStatus(row, ['ANNOTATED_FOR_REVIEW'], 'reviewed', trx);
          fourEyes(row, actor);
          await notHeldByOther(row, actor, trx);
          await sameVersion(row, body.version, trx);
          const submitted = annotationsOf(row.job);
          if (!submitted) {
            throw new AuthoringConflictError(
              `'${row.job.displayName}' has no submitted annotations to review.`,
              await view(row, trx),
            );
          }
          const comment = body.comment?.trim() ?? '';
          const problems: Detail[] = [];
          if (body.outcome === 'return' && !comment) {
            problems.push({
              path: 'body.comment',
              message: 'is required to return the annotations: say what to change',
            });
          }
          const entityIds = new Set(submitted.entities.map((e) => e.id));
          const rowIds = new Set(submitted.relationships.map((r) => r.id));
          const entityDecisions = new Map<string, (typeof body.entities)[number]>();
          body.entities.forEach((decision, i) => {
            const at = `body.entities.${i}`;
            if (!entityIds.has(decision.id)) {
              problems.push({ path: `${at}.id`, message: 'is not an entity of the submission' });
            } else if (entityDecisions.has(decision.id)) {
              problems.push({ path: `${at}.id`, message: 'has a decision already' });
            } else if (decision.decision === 'change' && decision.entity?.id !== decision.id) {
              problems.push({
                path: `${at}.entity`,
                message: 'is required for a change: the changed entity, with the same id',
              });
            }
            entityDecisions.set(decision.id, decision);
          });
          const rowDecisions = new Map<string, (typeof body.relationships)[number]>();
          body.relationships.forEach((decision, i) => {
            const at = `body.relationships.${i}`;
            if (!rowIds.has(decision.id)) {
              problems.push({
                path: `${at}.id`,
                message: 'is not a relationship of the submission',
              });
            } else if (rowDecisions.has(decision.id)) {
              problems.push({ path: `${at}.id`, message: 'has a decision already' });
            } else if (
              decision.decision === 'change' &&
              decision.relationship?.id !== decision.id
            ) {
              problems.push({
                path: `${at}.relationship`,
                message: 'is required for a change: the changed row, with the same id',
              });
            }
            rowDecisions.set(decision.id, decision);
          });
          if (body.outcome === 'approve') {
            const undecided = [
              ...submitted.entities
                .filter((e) => !entityDecisions.has(e.id))
                .map((e) => `entity ${e.id} ('${e.extract}')`),
              ...submitted.relationships
                .filter((r) => !rowDecisions.has(r.id))
                .map((r) => `relationship ${r.id} ('${r.entity}')`),
            ];
            if (undecided.length > 0) {
              problems.push({
                path: 'body',
                message: `needs a decision (accept, change or reject) on every entity and relationship before approval; none for ${undecided.slice(0, 5).join(', ')}${undecided.length > 5 ? ` and ${undecided.length - 5} more` : ''}`,
              });
            }
          }
          if (problems.length > 0) {
            throw badRequest(
              `The review cannot be saved: ${problems.map((d) => `${d.path} ${d.message}`).join('; ')}.`,
              problems,
            );
          }
          // The reviewed set: rejected entities (and their rows) out, changes in.
          const entities: AnnotatedEntity[] = submitted.entities.flatMap((entity) => {
            const decision = entityDecisions.get(entity.id);
            if (decision?.decision === 'reject') {
              return [];
            }
            return [
              decision?.decision === 'change' && decision.entity
                ? { ...decision.entity, state: 'annotated' as const }
                : annotatedOf(entity),
            ];
          });
          const kept = new Set(entities.map((e) => e.id));
          const relationships: AnnotatedRelationship[] = submitted.relationships.flatMap((r) => {
            const decision = rowDecisions.get(r.id);
            if (decision?.decision === 'reject' || !kept.has(r.id)) {
              return [];
            }
            return [
              decision?.decision === 'change' && decision.relationship ? decision.relationship : r,
            ];
          });
          const lookup = conceptLookup(knowledge);
          // A changed entity is checked as a submission is (its index is that of the reviewed set).
          const bad = badSet(
            checkSet(
              { entities, relationships },
              contextOf(row, body.outcome === 'approve', 'reviewed', lookup),
            ),
          );
          if (bad) {
            throw bad;
          }
          const now = new Date().toISOString();
          const version = row.annotation_version + 1;
          const decisions = {
            entities: submitted.entities.map((e) => ({
              id: e.id,
              decision: entityDecisions.get(e.id)?.decision ?? 'accept',
            })),
            relationships: submitted.relationships.map((r) => ({
              id: r.id,
              decision: kept.has(r.id) ? (rowDecisions.get(r.id)?.decision ?? 'accept') : 'reject',
            })),
          };
          const reviewer = { userId: actor.id, email: actor.email };
          if (body.outcome === 'approve') {
            const approved: AnnotationSet = {
              entities: entities.map((entity) => dataOf(entity, lookup)),
              relationships: relationships.map(rowOf),
              provenance: submitted.provenance,
            };
            const umls = umlsOf(row.job);
            // Rows that link nothing (the document's own concept…), said in the review.
            const document = documentConcept(row.job, lookup);
            const notLinked = approved.relationships.flatMap((r) => {
              const entity = approved.entities.find((e) => e.id === r.id);
              const reason = unlinkedReason(
                entity?.CUI,
                lookup,
                document.concept,
                document.entry?.code ?? null,
              );
              return reason ? [{ id: r.id, reason }] : [];
            });
            let revision: { revision: number; kbVersion: string } | null;
            try {
              revision = await revisions.recordChange(
                trx,
                (served) =>
                  documentWriteBack(
                    served,
                    { key, displayName: row.job.displayName, cui: umls?.code ?? null },
                    approved,
                  ),
                actor.id,
                { documentKey: key },
              );
            } catch (error) {
              if (error instanceof AppError) {
                throw error;
              }
              // The change would break the knowledge base (a concept it names has gone).
              throw new AuthoringConflictError(
                `The knowledge base cannot take these annotations, so nothing was approved: ${(error as Error).message}`,
                await view(row, trx),
              );
            }
            revised = revision !== null;
            const review: AnnotationReview = {
              outcome: 'approved',
              comment: comment || null,
              reviewer,
              reviewedOn: now,
              ...decisions,
              kbRevision: revision,
              notLinked,
            };
            await repo.write(
              key,
              {
                status: 'ANNOTATION_APPROVED',
                job: {
                  ...row.job,
                  status: 'ANNOTATION_APPROVED',
                  annotations: approved,
                  annotationsDraft: null,
                  annotationReview: review,
                },
                version,
                reviewedBy: actor.id,
              },
              trx,
            );
            await audit(trx, 'annotations.reviewed', actor, key, origin, 'success', {
              outcome: 'approved',
              from: row.status,
              to: 'ANNOTATION_APPROVED',
              version,
              entities: decisions.entities,
              relationships: decisions.relationships,
              kbRevision: revision,
              notLinked,
            });
          } else {
            const draft: DraftSet = {
              entities,
              relationships,
              provenance: { ...submitted.provenance, createdOn: now, system: PORTAL_SYSTEM },
            };
            const review: AnnotationReview = {
              outcome: 'returned',
              comment,
              reviewer,
              reviewedOn: now,
              ...decisions,
              kbRevision: null,
            };
            await repo.write(
              key,
              {
                status: 'ANNOTATED_DRAFT',
                job: {
                  ...row.job,
                  status: 'ANNOTATED_DRAFT',
                  annotations: null,
                  annotationsDraft: draft,
                  annotationReview: review,
                },
                version,
                reviewedBy: actor.id,
              },
              trx,
            );
            await audit(trx, 'annotations.reviewed', actor, key, origin, 'success', {
              outcome: 'returned',
              from: row.status,
              to: 'ANNOTATED_DRAFT',
              version,
              comment,
              entities: decisions.entities,
              relationships: decisions.relationships,
              // What was submitted, so a return loses nothing.
              submitted,
            });
          }
          return view(await found(key, trx), trx);
        }),
      );
      if (revised) {
        // Served here at once (concept search, the differential, the graph) and on every node.
        await revisions.published();
      }
      return job;
    },
  };
}

export type AuthoringService = ReturnType<typeof createAuthoringService>;
