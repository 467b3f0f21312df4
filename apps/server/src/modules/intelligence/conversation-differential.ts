import { TENANT_HEADER } from '@loopdesk/contracts/conversations.ts';
import type { ConversationDifferentialResponse } from '@loopdesk/contracts/intelligence.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import type { Database } from '../../platform/db/database.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';
import { createConversationDifferentialService } from './conversation-differential-service.ts';

/**
 * `GET /internal/intelligence/conversations/{id}/clinical_inference/differential_diagnosis`: the
 * differential of what the patient said in a conversation of the exception desk's store (spec 3
 * §3, §4), polled every 5 s by the conversation view. Reads like the transcript: the tenant of
 * X-Tenant-ID when sent, restricted conversations only with jobs:exception:restricted, and every
 * read in the audit trail.
 */
export function registerConversationDifferential(
  api: ApiRouter,
  deps: { db: Database; knowledge: Knowledge },
): void {
  const service = createConversationDifferentialService(deps);

  api.route(
    'GET /internal/intelligence/conversations/:id/clinical_inference/differential_diagnosis',
    async (request): Promise<ConversationDifferentialResponse> => {
      const user = request.user;
      if (!user) {
        throw unauthorized('Sign in first.');
      }
      const { id } = request.params;
      const header = request.headers[TENANT_HEADER];
      const tenant = typeof header === 'string' && header.length > 0 ? header : undefined;
      return service.differentialOf(id, user, tenant, requestOrigin(request));
    },
  );
}
