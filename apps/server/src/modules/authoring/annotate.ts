import type { z } from 'zod';
import type { AnnotationSet } from '@loopdesk/contracts/data-preparation.ts';
import type {
  AuthoringJob,
  DraftSet,
  SaveDraftBody,
  SubmitAnnotationsBody,
} from '@loopdesk/contracts/routes/authoring.ts';
import { checkSet, conceptLookup, dataOf, rowOf } from './annotations.ts';
import type { Actor, AuthoringContext, Origin } from './context.ts';
import { ANNOTATABLE, badSet } from './state.ts';

type DraftInput = z.output<typeof SaveDraftBody>;
type SubmitInput = z.output<typeof SubmitAnnotationsBody>;

/** The annotator's saves: SAVE AS DRAFT and SUBMIT DOCUMENT, each the next version of the job. */
export function annotateVerbs(ctx: AuthoringContext) {
  const {
    db,
    repo,
    knowledge,
    audit,
    audited,
    view,
    found,
    inStatus,
    notHeldByOther,
    sameVersion,
    contextOf,
    provenanceOf,
  } = ctx;

  return {
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
  };
}
