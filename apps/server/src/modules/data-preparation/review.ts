import {
  PORTAL_SYSTEM,
  type DataPreparationJob,
  type DocumentReference,
  type SaveDataPreparationJob,
} from '@loopdesk/contracts/data-preparation.ts';
import { canAccess } from '@loopdesk/contracts/privileges.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Database } from '../../platform/db/database.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { DocumentRow } from './repository.ts';
import {
  PREPARED_FILE,
  auditActor,
  jobOf,
  type Actor,
  type DataPreparationService,
  type Origin,
} from './service.ts';
import { isRefusal, refusalOf, transitionFor } from './transitions.ts';

const refuse = (refusal: { status: 403 | 409; message: string }) =>
  refusal.status === 403 ? forbidden(refusal.message) : conflict(refusal.message);

/** Someone else's lease that has not run out (a job taken with 'Get next job'). */
const heldByOther = (row: DocumentRow, actor: Actor) =>
  row.lease_holder !== null &&
  row.lease_holder !== actor.id &&
  row.lease_expires_at !== null &&
  row.lease_expires_at.getTime() > Date.now();

/**
 * Saving a job (`POST …/metadata`, spec 2 §7) and its prepared files (`POST …/document/{name}`):
 * the moves of spec 2 §4 with four eyes, each in one transaction with its audit entry.
 */
export function createReviewService(deps: { db: Database; service: DataPreparationService }) {
  const { db, service } = deps;
  const { repo, audited } = service;

  return {
    async save(
      body: SaveDataPreparationJob,
      actor: Actor,
      origin: Origin,
    ): Promise<DataPreparationJob> {
      const target = body.status;
      return audited(`job.saved`, actor, body.key, origin, () =>
        db.transaction().execute(async (trx) => {
          const row = await repo.find(body.key, trx, true);
          if (!row) {
            throw notFound(`No data preparation job with the id '${body.key}'.`);
          }
          if (body.code !== row.code) {
            throw badRequest(
              `The job '${body.key}' has the code '${row.code}', not '${body.code}'.`,
              [{ path: 'body.code', message: `must be ${row.code}` }],
            );
          }
          const transition = transitionFor(row.status, target);
          if (isRefusal(transition)) {
            throw refuse(transition);
          }
          const refusal = refusalOf(transition, actor, row.prepared_by);
          if (refusal) {
            throw refuse(refusal);
          }
          if (row.status === 'REGISTERED' && heldByOther(row, actor)) {
            throw conflict(
              `Someone else is preparing '${row.job.displayName}' (they took it with 'Get next job'): take another job.`,
            );
          }
          // What the server owns stays the server's: the key, code, stored files and extraction.
          const job: DataPreparationJob = {
            ...body,
            key: row.key,
            code: row.code,
            status: target,
            references: row.job.references,
            ...(row.job.extraction ? { extraction: row.job.extraction } : {}),
            // The annotations are the authoring module's (docs/authoring.md).
            annotations: row.job.annotations ?? null,
            annotationsDraft: row.job.annotationsDraft ?? null,
            rejectionComment: target === 'REJECTED' ? (body.rejectionComment ?? '').trim() : null,
          } as DataPreparationJob;
          const saved = await repo.save(
            row.key,
            {
              status: target,
              job,
              ...(transition.records === 'preparer' ? { preparedBy: actor.id } : {}),
              ...(transition.records === 'reviewer' ? { reviewedBy: actor.id } : {}),
              keepLease: target === 'REGISTERED',
            },
            trx,
          );
          await recordAudit(
            trx,
            {
              action: 'data-preparation.job.saved',
              outcome: 'success',
              ...auditActor(actor),
              resourceType: 'data-preparation-document',
              resourceId: row.key,
              details: { from: row.status, to: target, verb: transition.verb },
            },
            origin,
          );
          return jobOf(saved);
        }),
      );
    },

    /**
     * Stores a prepared text under its name (`{code}.prepared.txt`, or `.prepared.approved.txt`
     * by a reviewer) and lists it in the job's references.
     */
    async storePrepared(
      name: string,
      text: string,
      actor: Actor,
      origin: Origin,
    ): Promise<DocumentReference> {
      return audited('prepared.stored', actor, name, origin, async () => {
        const match = PREPARED_FILE.exec(name);
        if (!match?.[1]) {
          throw badRequest(
            `Name the prepared file after its job's code: {code}.prepared.txt, or {code}.prepared.approved.txt when approved (got '${name}').`,
            [
              {
                path: 'params.name',
                message: 'must be {code}.prepared.txt or {code}.prepared.approved.txt',
              },
            ],
          );
        }
        const approved = Boolean(match[2]);
        const row = await repo.findByCode(match[1]);
        if (!row) {
          throw notFound(`No data preparation job has the code '${match[1]}'.`);
        }
        if (approved && !canAccess(actor.roles, { anyOf: ['jobs:preparation:review'] })) {
          throw forbidden(
            'An approved prepared text is stored by a reviewer: it needs the privilege jobs:preparation:review.',
          );
        }
        if (row.status === 'REJECTED') {
          throw conflict(`'${row.job.displayName}' was rejected: its prepared text is not stored.`);
        }
        const reference: DocumentReference = {
          code: { system: PORTAL_SYSTEM, code: approved ? 'prepared-approved' : 'prepared' },
          reference: name,
          contentType: 'text/plain',
        };
        await db.transaction().execute(async (trx) => {
          await service.storeFile(name, text, trx);
          const current = await repo.find(row.key, trx, true);
          const job = current?.job ?? row.job;
          await repo.setJob(
            row.key,
            {
              ...job,
              references: [...job.references.filter((r) => r.reference !== name), reference],
            },
            trx,
          );
          await recordAudit(
            trx,
            {
              action: 'data-preparation.prepared.stored',
              outcome: 'success',
              ...auditActor(actor),
              resourceType: 'data-preparation-document',
              resourceId: row.key,
              details: { name, bytes: Buffer.byteLength(text, 'utf8') },
            },
            origin,
          );
        });
        return reference;
      });
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
