import type { z } from 'zod';
import { PORTAL_SYSTEM, type AnnotationSet } from '@loopdesk/contracts/data-preparation.ts';
import type {
  AnnotatedEntity,
  AnnotatedRelationship,
  AnnotationReview,
  AuthoringJob,
  DraftSet,
  ReviewAnnotationsBody,
} from '@loopdesk/contracts/routes/authoring.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import {
  annotatedOf,
  checkSet,
  conceptLookup,
  dataOf,
  rowOf,
  unlinkedReason,
  type Detail,
} from './annotations.ts';
import {
  AuthoringConflictError,
  type Actor,
  type AuthoringContext,
  type Origin,
} from './context.ts';
import { annotationsOf, badSet, umlsOf } from './state.ts';
import { documentWriteBack } from './write-back.ts';

type ReviewInput = z.output<typeof ReviewAnnotationsBody>;

/**
 * The reviewer's decision (four eyes): approve, the knowledge base revised in the same transaction,
 * or return to the annotator with a comment.
 */
export function reviewVerbs(ctx: AuthoringContext) {
  const {
    db,
    repo,
    knowledge,
    revisions,
    audit,
    audited,
    view,
    found,
    fourEyes,
    inStatus,
    notHeldByOther,
    sameVersion,
    contextOf,
    documentConcept,
  } = ctx;

  return {
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
