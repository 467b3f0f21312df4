import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  JOB_CONTEXT_TURNS,
  notHeldMessage,
  type JobContext,
} from '@loopdesk/contracts/job-context.ts';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import { AppError, notFound, unauthorized } from '../../platform/errors.ts';
import type { Database } from '../../platform/db/database.ts';
import { createJobsRepository } from '../jobs/repository.ts';

/**
 * A read that found nothing (no such patient or conversation recorded) or that the technician may
 * not make (a restricted conversation) gives no context.
 */
async function orNothing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError && (error.statusCode === 404 || error.statusCode === 403)) {
      return null;
    }
    throw error;
  }
}

const signedIn = (request: FastifyRequest) => {
  if (!request.user) {
    throw unauthorized('Sign in first.');
  }
  return request.user;
};

/**
 * `GET /internal/quinn/jobs/{id}/_context` (issue 20 "Context"): the patient's first name and the
 * conversation's latest turns, for the technician holding the job only. It reads through the
 * conversations module, which audits each read of a transcript or a patient and refuses a
 * restricted conversation to whoever lacks the privilege; the context read itself is audited too.
 */
export function registerJobContextRoute(
  app: FastifyInstance,
  deps: { api: ApiRouter; db: Database },
): void {
  const jobs = createJobsRepository(deps.db);
  deps.api.route('GET /internal/quinn/jobs/:id/_context', async (request): Promise<JobContext> => {
    const user = signedIn(request);
    const { id } = request.params;
    const job = await jobs.findHeld(id, user.id);
    if (!job) {
      throw notFound(notHeldMessage(id));
    }
    const payload =
      typeof job.payload === 'object' && job.payload !== null && !Array.isArray(job.payload)
        ? (job.payload as Record<string, unknown>)
        : {};
    const view = readMessageJob(payload);
    const origin = requestOrigin(request);
    const { service } = app.conversations;
    const conversationId = view.conversationId;
    const page = conversationId
      ? await orNothing(() =>
          service.messages(
            conversationId,
            { order: '-createdOn', s: JOB_CONTEXT_TURNS },
            user,
            job.tenant,
            origin,
          ),
        )
      : null;
    const patientId = view.userId;
    const person = patientId
      ? await orNothing(() => service.consumer(patientId, false, user, job.tenant, origin))
      : null;
    await recordAudit(
      deps.db,
      {
        action: 'job.context.read',
        outcome: 'success',
        actorId: user.id,
        actorEmail: user.email,
        resourceType: 'job',
        resourceId: id,
        statusCode: 200,
        details: {
          conversationId: conversationId ?? null,
          patientId: person ? patientId : null,
          turns: page?.items.length ?? 0,
        },
      },
      origin,
    );
    const firstName = person?.name.given.trim();
    return {
      patient: firstName ? { firstName } : null,
      turns: (page?.items ?? [])
        .map((m) => ({ direction: m.direction, content: m.content, createdOn: m.createdOn }))
        .reverse(),
    };
  });
}
