import { EventAccepted, type CloudEvent } from '@loopdesk/contracts/realtime.ts';
import { callRoute } from '../api-client.ts';

/** The portal event of spec 1 §7: sent on the socket and "also posted to the events call". */
export const PORTAL_EVENT_TYPE = 'dh.portal.hitl.event';

/**
 * Posts a portal event, as sent on the socket (same id, source '/portal', data schema), to
 * `POST /internal/users/me/_events` (spec 1 §7). Spec 1 §8: "Failed publishing of portal events is
 * only logged": this never throws and shows nothing; the server takes whichever copy comes first.
 */
export async function postPortalEvent(
  event: CloudEvent,
  log: Pick<Console, 'warn'> = console,
): Promise<boolean> {
  try {
    await callRoute('POST', '/internal/users/me/_events', { body: event, schema: EventAccepted });
    return true;
  } catch (failure) {
    log.warn(`Publishing the portal event ${event.id} failed`, failure);
    return false;
  }
}
