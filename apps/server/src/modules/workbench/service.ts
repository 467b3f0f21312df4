import {
  ASSISTANT_ANSWERS,
  type AnswerRequestBody,
  type AssistantRequestKind,
  type RequestsQuery,
} from '@loopdesk/contracts/quinn.ts';
import type { z } from 'zod';
import { recordAudit } from '../../platform/audit.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, conflict, notFound } from '../../platform/errors.ts';
import type { AssistantRequestRow, QuinnRepository } from './repository.ts';

/** How often a waiting portal request looks at its row even without a bus message. */
const WAIT_POLL_MS = 1_000;

/** The portal's request waited longer than the assistant may take. */
export const assistantTimeoutMessage = (seconds: number) =>
  `The assistant did not answer within ${seconds} s: try again, or raise an exception to pass the job on.`;
/** The assistant answered that it cannot answer. */
export const assistantFailedMessage = (error: string) => `The assistant could not answer: ${error}`;
/** The assistant answered that it does not know the conversation or intent asked about. */
export const assistantNotFoundMessage = (error: string) =>
  `The assistant does not know what was asked about: ${error}`;

type Origin = { ip: string | null; userAgent: string | null; requestId: string | null };

export interface QuinnServiceOptions {
  repo: QuinnRepository;
  /** Where the assistant's reads and answers are audited. */
  db: Database;
  bus: Bus;
  /** How long a portal request waits for the assistant. */
  timeoutMs: number;
  /** How long an answered context menu is reused for the same tenant and intent; 0: never. */
  cacheMs: number;
}

/**
 * The portal's questions to the assistant: each is a row the assistant reads through the
 * integration API and answers; the portal's HTTP request waits for that answer (or times out).
 */
export function createQuinnService(options: QuinnServiceOptions) {
  const { repo, bus } = options;

  /** Resolves with the row once it is no longer pending, or after `ms` with the row as it is. */
  function settled(id: string, ms: number): Promise<AssistantRequestRow | undefined> {
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (row: AssistantRequestRow | undefined, error?: unknown) => {
        if (done) {
          return;
        }
        done = true;
        off();
        clearInterval(poll);
        clearTimeout(timer);
        if (error !== undefined) {
          reject(error instanceof Error ? error : new Error('the request could not be read'));
        } else {
          resolve(row);
        }
      };
      const look = () => {
        repo
          .get(id)
          .then((row) => {
            if (row && row.state !== 'pending') {
              finish(row);
            }
          })
          .catch((error: unknown) => finish(undefined, error));
      };
      const off = bus.subscribe('assistant.requests.settled', (message) => {
        if (message.id === id) {
          look();
        }
      });
      const poll = setInterval(look, WAIT_POLL_MS);
      const timer = setTimeout(() => {
        repo
          .expire(id)
          .then(() => repo.get(id))
          .then((row) => finish(row))
          .catch((error: unknown) => finish(undefined, error));
      }, ms);
    });
  }

  /** The answer of a settled row, or the error the portal gets. */
  function outcome(row: AssistantRequestRow | undefined): unknown {
    if (row?.state === 'answered') {
      return row.answer;
    }
    if (row?.state === 'failed') {
      const error = row.error ?? 'no reason given';
      // Not knowing the conversation or intent is the caller's 404; any other failure is ours.
      throw row.error_reason === 'not_found'
        ? notFound(assistantNotFoundMessage(error))
        : new AppError(502, assistantFailedMessage(error));
    }
    throw new AppError(504, assistantTimeoutMessage(options.timeoutMs / 1000));
  }

  return {
    /**
     * Asks the assistant and waits for its answer, parsed with the kind's schema. A context menu
     * answered for the same tenant and intent within the cache time is reused without asking.
     */
    async ask<K extends AssistantRequestKind>(input: {
      kind: K;
      tenant: string;
      body: Record<string, unknown>;
      cacheKey?: string;
      requestedBy: string | null;
    }): Promise<z.infer<(typeof ASSISTANT_ANSWERS)[K]>> {
      const schema = ASSISTANT_ANSWERS[input.kind];
      if (input.cacheKey !== undefined && options.cacheMs > 0) {
        const cached = await repo.findCached(
          input.kind,
          input.tenant,
          input.cacheKey,
          new Date(Date.now() - options.cacheMs),
        );
        if (cached) {
          return schema.parse(cached.answer) as z.infer<(typeof ASSISTANT_ANSWERS)[K]>;
        }
      }
      const row = await repo.create({
        kind: input.kind,
        tenant: input.tenant,
        cacheKey: input.cacheKey ?? null,
        body: input.body,
        requestedBy: input.requestedBy,
        timeoutMs: options.timeoutMs,
      });
      const waiting = settled(row.id, options.timeoutMs);
      await bus.publish('assistant.requests.created', { id: row.id });
      // Answers are checked against the schema when the assistant sends them.
      return schema.parse(outcome(await waiting)) as z.infer<(typeof ASSISTANT_ANSWERS)[K]>;
    },

    /**
     * The assistant's poll: pending questions, waiting up to `wait` seconds for one when there is
     * none. `signal` ends the wait early (the assistant hung up).
     */
    async poll(query: RequestsQuery, signal?: AbortSignal): Promise<AssistantRequestRow[]> {
      const rows = await repo.claimPending(query.limit);
      if (rows.length > 0 || query.wait === 0) {
        return rows;
      }
      await new Promise<void>((resolve) => {
        const end = () => {
          off();
          clearTimeout(timer);
          signal?.removeEventListener('abort', end);
          resolve();
        };
        const off = bus.subscribe('assistant.requests.created', end);
        const timer = setTimeout(end, query.wait * 1000);
        signal?.addEventListener('abort', end);
      });
      return signal?.aborted ? [] : repo.claimPending(query.limit);
    },

    /**
     * The assistant's answer: checked against the kind's schema (a 400 changes nothing, so a
     * corrected answer can follow), then stored; the waiting portal request replies at once.
     */
    async answer(
      id: string,
      body: AnswerRequestBody,
      answeredBy: string,
    ): Promise<AssistantRequestRow> {
      const row = await repo.get(id);
      if (!row) {
        throw notFound(`No request with the id '${id}'.`);
      }
      const kind = row.kind as AssistantRequestKind;
      let outcomeBody: AnswerRequestBody = body;
      if ('answer' in body) {
        const parsed = ASSISTANT_ANSWERS[kind].safeParse(body.answer);
        if (!parsed.success) {
          const details = parsed.error.issues.map((issue) => ({
            path: ['body', 'answer', ...issue.path.map(String)].join('.'),
            message: issue.message,
          }));
          throw new AppError(
            400,
            `The answer to a ${kind} request is not valid: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}.`,
            details,
          );
        }
        outcomeBody = { answer: parsed.data };
      }
      const settledRow = await repo.settle(id, outcomeBody, answeredBy);
      if (!settledRow) {
        const current = (await repo.get(id)) ?? row;
        throw conflict(
          current.state === 'pending' || current.state === 'expired'
            ? `The request ${id} expired at ${new Date(current.expires_at).toISOString()}: the portal stopped waiting, so the answer changed nothing.`
            : `The request ${id} is already ${current.state}: the answer changed nothing.`,
        );
      }
      await bus.publish('assistant.requests.settled', { id });
      return settledRow;
    },

    /** `poll` for the assistant's API key: what it read goes into the audit trail. */
    async readByAssistant(
      query: RequestsQuery,
      signal: AbortSignal,
      apiKey: string,
      origin: Origin,
    ): Promise<AssistantRequestRow[]> {
      const rows = await this.poll(query, signal);
      if (rows.length > 0) {
        await recordAudit(
          options.db,
          {
            action: 'integration.requests.read',
            outcome: 'success',
            resourceType: 'assistant-request',
            resourceId: rows.map((r) => r.id).join(','),
            statusCode: 200,
            details: { apiKey, kinds: rows.map((r) => r.kind) },
          },
          origin,
        );
      }
      return rows;
    },

    /** `answer` for the assistant's API key: the answer, or its refusal, in the audit trail. */
    async answerByAssistant(
      id: string,
      body: AnswerRequestBody,
      apiKey: string,
      origin: Origin,
    ): Promise<AssistantRequestRow> {
      try {
        const row = await this.answer(id, body, apiKey);
        await recordAudit(
          options.db,
          {
            action: 'integration.request.answer',
            outcome: 'success',
            resourceType: 'assistant-request',
            resourceId: row.id,
            statusCode: 200,
            details: { apiKey, kind: row.kind, state: row.state },
          },
          origin,
        );
        return row;
      } catch (error) {
        if (error instanceof AppError) {
          await recordAudit(
            options.db,
            {
              action: 'integration.request.answer',
              outcome: 'failure',
              resourceType: 'assistant-request',
              resourceId: id,
              statusCode: error.statusCode,
              details: { apiKey, message: error.message },
            },
            origin,
          );
        }
        throw error;
      }
    },

    /** The newest context menu the assistant gave for a tenant's intent (for checking submissions). */
    async latestContextMenu(tenant: string, intent: string) {
      const row = await repo.findLatestAnswer('intent.context_menu', tenant, intent);
      const parsed = ASSISTANT_ANSWERS['intent.context_menu'].safeParse(row?.answer);
      return parsed.success ? parsed.data : null;
    },
  };
}

export type QuinnService = ReturnType<typeof createQuinnService>;
