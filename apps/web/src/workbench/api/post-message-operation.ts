import { AnsweredEvent, type MessageOperation } from '@loopdesk/contracts/quinn.ts';
import type { IntentSubmission } from '@loopdesk/contracts/workbench-payloads.ts';
import type { MessageNextBody, MessageRedirectBody } from '@loopdesk/contracts/quinn.ts';
import { callRoute } from '../../lib/api-client.ts';

/** The body each message operation takes (spec 1 §7). */
export interface MessageOperationBodies {
  intents: IntentSubmission;
  next: MessageNextBody;
  redirect: MessageRedirectBody;
}

/**
 * `POST /internal/quinn/messages/{operation}` (message.intents, message.next, message.redirect;
 * spec 1 §7, path ours) with the job's tenant: the assistant answers with an event that the
 * portal then submits on its socket.
 */
export function postMessageOperation<O extends MessageOperation>(
  operation: O,
  tenant: string,
  body: MessageOperationBodies[O],
): Promise<AnsweredEvent> {
  return callRoute('POST', '/internal/quinn/messages/:operation', {
    params: { operation },
    tenantId: tenant,
    body,
    schema: AnsweredEvent,
  });
}
