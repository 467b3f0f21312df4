import type { ApiRouter, RouteRequest } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { SummaryService } from './service.ts';

/** The route guard has signed the caller in; a handler without a user is a wiring fault. */
const userOf = (request: { user: RequestUser | null }): RequestUser => {
  if (!request.user) {
    throw unauthorized('Sign in first.');
  }
  return request.user;
};

/** The `/internal/job-types/hpi-summarisation` routes (spec 1 §7, 2 §7): parse, call, reply. */
export function registerSummaryRoutes(api: ApiRouter, service: SummaryService): void {
  api.route(
    'GET /internal/job-types/hpi-summarisation/jobs/_next',
    { docs: { tags: ['summaries'], summary: 'Take the next summary job (leased to the caller)' } },
    (request) => service.takeNext(userOf(request), requestOrigin(request)),
  );

  /** A save or a send: the job's id, the job, its tenant header, who and whence. */
  const change = (
    request: RouteRequest<
      | 'PATCH /internal/job-types/hpi-summarisation/jobs/:id'
      | 'POST /internal/job-types/hpi-summarisation/jobs/:id/_send'
    >,
  ) =>
    [
      request.params.id,
      request.body,
      request.headers['x-tenant-id'],
      userOf(request),
      requestOrigin(request),
    ] as const;

  api.route(
    'PATCH /internal/job-types/hpi-summarisation/jobs/:id',
    { docs: { tags: ['summaries'], summary: 'Save the edited note of a summary job you hold' } },
    (request) => service.save(...change(request)),
  );

  api.route(
    'POST /internal/job-types/hpi-summarisation/jobs/:id/_send',
    {
      docs: {
        tags: ['summaries'],
        summary: 'Send the clinical note to the physician: completes the job, tells the assistant',
      },
    },
    (request) => service.send(...change(request)),
  );

  api.route(
    'GET /internal/job-types/hpi-summarisation/jobs/:id/messages',
    {
      docs: {
        tags: ['summaries'],
        summary: "A page of 10 of the job's conversation, oldest first (the job's holder only)",
      },
    },
    (request) =>
      service.transcript(
        request.params.id,
        request.query.p,
        userOf(request),
        requestOrigin(request),
      ),
  );
}
