import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import {
  NO_TEXT_LAYER_MESSAGE,
  PORTAL_SYSTEM,
  type ConceptOption,
  type DataPreparationJob,
  type DataPreparationJobSummary,
  type DataPreparationStatus,
  type DocumentExtraction,
  type RegisteredDocument,
} from '@loopdesk/contracts/data-preparation.ts';
import { SEMANTIC_TYPES } from '@loopdesk/clinical/nlp/evaluate.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import { audited as auditedWork, recordAudit, type requestOrigin } from '../../platform/audit.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { awaitBuild, notFound } from '../../platform/errors.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';
import { joinPages, readOriginal } from './originals.ts';
import { createDocumentsRepository, type DocumentRow } from './repository.ts';
import type { DocumentStore } from './store.ts';

export type Origin = ReturnType<typeof requestOrigin>;

/** Who acts: a signed-in user, or the assistant through an API key (`api-key:{name}`, no roles). */
export interface Actor {
  readonly id: string;
  readonly email: string | null;
  readonly roles: readonly Role[];
}

/** Where a document's files are kept in the document store. */
export const originalName = (key: string) => `originals/${key}`;
export const preparedName = (fileName: string) => `prepared/${fileName}`;

/** `{code}.prepared.txt` or `{code}.prepared.approved.txt` (spec 2 §9). */
export const PREPARED_FILE = /^(.+?)\.prepared(\.approved)?\.txt$/;

/** A job code from the document's name: readable in file names, unique by the key's start. */
export function codeFor(name: string, key: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\.(pdf|txt|text)$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${slug || 'document'}-${key.slice(0, 8)}`;
}

const nameOf = (fileName: string) => fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '') || fileName;

/** The job as the portal sees it: the stored job with the row's key, code and status. */
export function jobOf(row: DocumentRow): DataPreparationJob {
  return { ...row.job, key: row.key, code: row.code, status: row.status };
}

function extractionOf(row: DocumentRow): DocumentExtraction {
  return {
    fileName: row.file_name,
    contentType: row.content_type,
    bytes: row.byte_size,
    pages: row.page_count,
    textLayer: row.text_layer,
  };
}

/** Users are audited by their id; the assistant (an API key) and the demo seed by name. */
export function auditActor(actor: Actor): { actorId: string | null; actorEmail: string | null } {
  const isUser = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(actor.id);
  return {
    actorId: isUser ? actor.id : null,
    actorEmail: actor.email ?? (isUser ? null : actor.id),
  };
}

const sourceOf = (job: DataPreparationJob) => job.source ?? job.provenance[0]?.source;

export interface DataPreparationDeps {
  readonly db: Database;
  readonly store: DocumentStore;
  readonly knowledge: Knowledge;
}

/** Registration, reads and files of the data-preparation documents (spec 2 §7). */
export function createDataPreparationService(deps: DataPreparationDeps) {
  const { db, store, knowledge } = deps;
  const repo = createDocumentsRepository(db);

  const audit = (
    action: string,
    actor: Actor,
    resourceId: string | null,
    origin: Origin,
    outcome: 'success' | 'denied' | 'failure' = 'success',
    details: Record<string, unknown> = {},
    statusCode: number | null = null,
  ) =>
    recordAudit(
      db,
      {
        action: `data-preparation.${action}`,
        outcome,
        ...auditActor(actor),
        resourceType: 'data-preparation-document',
        resourceId,
        statusCode,
        details,
      },
      origin,
    );

  /** Runs `work`; a refusal (AppError) is audited with its status before it is thrown on. */
  const audited = <T>(
    action: string,
    actor: Actor,
    resourceId: string | null,
    origin: Origin,
    work: () => Promise<T>,
  ): Promise<T> =>
    auditedWork(work, (error, outcome) =>
      audit(
        action,
        actor,
        resourceId,
        origin,
        outcome,
        { message: error.message },
        error.statusCode,
      ),
    );

  async function found(key: string): Promise<DocumentRow> {
    const row = await repo.find(key);
    if (!row) {
      throw notFound(`No data preparation job with the id '${key}'.`);
    }
    return row;
  }

  return {
    repo,
    audited,
    audit,

    /**
     * Registers an original (a PDF or UTF-8 text, found by its bytes): stores it, extracts its
     * text page by page, and creates its job in status REGISTERED.
     */
    async register(
      input: {
        fileName: string;
        bytes: Uint8Array;
        name?: string | undefined;
        source?: string | undefined;
        via: 'api' | 'upload' | 'demo';
        demo?: boolean;
      },
      actor: Actor,
      origin: Origin,
      outer?: Transaction<DB>,
    ): Promise<RegisteredDocument> {
      return audited('document.registered', actor, null, origin, async () => {
        const read = await readOriginal(input.fileName, input.bytes);
        const key = randomUUID();
        const displayName = input.name?.trim() || nameOf(input.fileName);
        const code = codeFor(displayName, key);
        const source = input.source?.trim() || undefined;
        const extraction: DocumentExtraction = {
          fileName: input.fileName,
          contentType: read.contentType,
          bytes: input.bytes.byteLength,
          pages: read.pages.length,
          textLayer: read.textLayer,
        };
        const extractedText = joinPages(read);
        const job: DataPreparationJob = {
          key,
          code,
          displayName,
          status: 'REGISTERED',
          rejectionComment: null,
          containsImages: false,
          containsTables: false,
          provenance: source ? [{ source, publishedDate: null, pageNumber: null }] : [],
          classification: [],
          references: [
            {
              code: { system: PORTAL_SYSTEM, code: 'original' },
              reference: input.fileName,
              contentType: read.contentType,
            },
          ],
          ...(source ? { source } : {}),
          preparedText: extractedText,
          extraction,
        };
        const inTransaction = async (trx: Transaction<DB>) => {
          // The original and its row commit together (the PostgreSQL store).
          await store.put(originalName(key), input.bytes, read.contentType, trx);
          await repo.insert(
            {
              key,
              code,
              status: 'REGISTERED',
              job,
              file_name: input.fileName,
              content_type: read.contentType,
              byte_size: input.bytes.byteLength,
              page_count: read.pages.length,
              text_layer: read.textLayer,
              extracted_text: extractedText,
              origin: input.via,
              demo: input.demo ?? false,
              registered_by: actor.id,
            },
            trx,
          );
          await recordAudit(
            trx,
            {
              action: 'data-preparation.document.registered',
              outcome: 'success',
              ...auditActor(actor),
              resourceType: 'data-preparation-document',
              resourceId: key,
              details: { code, via: input.via, ...extraction },
            },
            origin,
          );
        };
        await (outer ? inTransaction(outer) : db.transaction().execute(inTransaction));
        return {
          key,
          code,
          displayName,
          status: 'REGISTERED',
          ...(source ? { source } : {}),
          extraction,
          ...(read.textLayer || read.contentType !== 'application/pdf'
            ? {}
            : { message: NO_TEXT_LAYER_MESSAGE }),
        };
      });
    },

    /** Stores a prepared text under its file name (`{code}.prepared.txt`). */
    storeFile: (fileName: string, text: string, trx?: Transaction<DB>) =>
      store.put(
        preparedName(fileName),
        Buffer.from(text, 'utf8'),
        'text/plain; charset=utf-8',
        trx,
      ),

    /** `_size`: how many jobs are in these statuses (all when none are named). */
    size: (statuses: readonly DataPreparationStatus[] | undefined) => repo.count(statuses),

    /** `summary`: the rows of a work-stage list, oldest first. */
    async summary(
      statuses: readonly DataPreparationStatus[] | undefined,
      actor: Actor,
      origin: Origin,
    ): Promise<DataPreparationJobSummary[]> {
      const rows = await repo.list(statuses);
      await audit('list.read', actor, null, origin, 'success', {
        statuses: statuses ?? 'all',
        count: rows.length,
      });
      return rows.map((row) => {
        const source = sourceOf(row.job);
        return {
          key: row.key,
          code: row.code,
          displayName: row.job.displayName,
          status: row.status,
          ...(source ? { source } : {}),
          fileName: row.file_name,
          demo: row.demo,
          createdOn: row.created_at.toISOString(),
        };
      });
    },

    async get(key: string, actor: Actor, origin: Origin): Promise<DataPreparationJob> {
      return audited('job.read', actor, key, origin, async () => {
        const row = await found(key);
        await audit('job.read', actor, key, origin);
        return { ...jobOf(row), extraction: extractionOf(row) };
      });
    },

    /** 'Get next job': the oldest registered job, leased to the caller; null when none is free. */
    async next(actor: Actor, origin: Origin, leaseMs: number): Promise<DataPreparationJob | null> {
      const row = await repo.leaseNext(actor.id, leaseMs);
      await audit('job.leased', actor, row?.key ?? null, origin, 'success', {
        found: row !== null,
      });
      return row ? { ...jobOf(row), extraction: extractionOf(row) } : null;
    },

    /** The PDF of a job whose original is a PDF. */
    async pdf(key: string, actor: Actor, origin: Origin): Promise<Uint8Array> {
      return audited('document.read', actor, key, origin, async () => {
        const row = await found(key);
        if (row.content_type !== 'application/pdf') {
          throw notFound(
            `The document '${key}' is plain text, not a PDF: read it at document/text/${key}.`,
          );
        }
        const file = await store.get(originalName(key));
        if (!file) {
          throw notFound(`The original of '${key}' is missing from the document store.`);
        }
        await audit('document.read', actor, key, origin, 'success', { kind: 'pdf' });
        return file.bytes;
      });
    },

    /**
     * The text of `{id}`: a job's original when it is text, its extracted text when a PDF; or a
     * stored prepared file by its name (`{code}.prepared.txt`).
     */
    async text(id: string, actor: Actor, origin: Origin): Promise<string> {
      return audited('document.read', actor, id, origin, async () => {
        let text: string | null = null;
        if (PREPARED_FILE.test(id)) {
          const file = await store.get(preparedName(id));
          text = file ? Buffer.from(file.bytes).toString('utf8') : null;
        } else {
          const row = await repo.find(id);
          if (row?.content_type === 'text/plain') {
            const file = await store.get(originalName(id));
            text = file
              ? Buffer.from(file.bytes)
                  .toString('utf8')
                  .replace(/^\uFEFF/, '')
              : null;
          } else if (row) {
            text = row.extracted_text;
          }
        }
        if (text === null) {
          throw notFound(`No document or prepared file named '${id}'.`);
        }
        await audit('document.read', actor, id, origin, 'success', { kind: 'text' });
        return text;
      });
    },

    /** `reference/{id}`: where a frame or a download loads a job's original or a prepared file. */
    async reference(id: string, actor: Actor, origin: Origin): Promise<{ url: string }> {
      return audited('reference.read', actor, id, origin, async () => {
        let url: string;
        if (PREPARED_FILE.test(id)) {
          if (!(await store.get(preparedName(id)))) {
            throw notFound(`No prepared file named '${id}'.`);
          }
          url =
            (await store.directUrl(preparedName(id))) ??
            `/internal/data-preparation/document/text/${encodeURIComponent(id)}`;
        } else {
          const row = await found(id);
          const kind = row.content_type === 'application/pdf' ? 'pdf' : 'text';
          url =
            (await store.directUrl(originalName(id))) ??
            `/internal/data-preparation/document/${kind}/${encodeURIComponent(id)}`;
        }
        await audit('reference.read', actor, id, origin);
        return { url };
      });
    },

    /**
     * `query/{view}?q=`: concept options of the knowledge base (spec 2 §3 "Concept option"), once
     * concept search is built (a large knowledge base is indexed in the background).
     */
    async query(q: string): Promise<ConceptOption[]> {
      await awaitBuild(knowledge.index.ready, 'Concept search');
      return knowledge.index.search(q.trim()).map((result) => ({
        name: result.canonicalName,
        conceptId: result.conceptId,
        relevance: result.score,
        types: [SEMANTIC_TYPES[result.class]],
        sources: knowledge.byId.get(result.conceptId)?.codes ?? [],
      }));
    },
  };
}

export type DataPreparationService = ReturnType<typeof createDataPreparationService>;
