import { RESTRICTED_EXCEPTIONS_PRIVILEGE } from '@loopdesk/contracts/exceptions.ts';
import { hasPrivilege, type Privilege } from '@loopdesk/contracts/privileges.ts';

/**
 * The allocation rule of the exception desk (docs/exception-desk.md "Allocation"), pure: which
 * reviewer gets which waiting conversation. The desk runs it in one transaction under the
 * cluster-wide allocation lock, on the reviewers whose session is on and the conversations that
 * wait, first in first out.
 */

const RESTRICTED = RESTRICTED_EXCEPTIONS_PRIVILEGE satisfies Privilege;

/** A reviewer whose exceptions session is on, with how many conversations they hold. */
export interface ReviewerLoad {
  readonly userId: string;
  readonly roles: readonly string[];
  /** Open conversations they hold now. */
  readonly held: number;
  /** Since when they have waited (they resumed, or last got a conversation). */
  readonly idleSince: Date | null;
}

/** A conversation waiting for a reviewer. */
export interface WaitingConversation {
  readonly id: string;
  /** Its queue (`exceptions` or `exceptions-restricted`); null is read as the ordinary one. */
  readonly queue: string | null;
}

/** Whether a reviewer may take a conversation: restricted ones need the restricted privilege. */
export function mayTake(roles: readonly string[], conversation: WaitingConversation): boolean {
  return conversation.queue !== 'exceptions-restricted' || hasPrivilege(roles, RESTRICTED);
}

/** Whether a reviewer may take conversations at the desk at all. */
export function isDeskReviewer(roles: readonly string[]): boolean {
  return hasPrivilege(roles, 'jobs:exception:perform');
}

/**
 * Allocates waiting conversations, in the order given (first in, first out), to reviewers: each
 * goes to an eligible reviewer below `capacity` holding the fewest, then the one who waited
 * longest, then by id (so every node decides the same). A reviewer who gets one has waited least
 * from then on. A conversation nobody may take is passed over without holding up those behind
 * it. Returns the conversation ids given to each reviewer, in allocation order.
 */
export function allocate(
  reviewers: readonly ReviewerLoad[],
  waiting: readonly WaitingConversation[],
  capacity: number,
  now: number,
): Map<string, string[]> {
  // Copies: the rule counts what each reviewer takes in this pass without touching its input.
  const loads: {
    userId: string;
    roles: readonly string[];
    held: number;
    idleSince: Date | null;
  }[] = reviewers
    .filter((r) => isDeskReviewer(r.roles) && r.held < capacity)
    .map((r) => ({ ...r }));
  const byReviewer = new Map<string, string[]>();
  let tick = now;
  for (const conversation of waiting) {
    const pick = loads
      .filter((r) => r.held < capacity && mayTake(r.roles, conversation))
      .sort(
        (a, b) =>
          a.held - b.held ||
          (a.idleSince?.getTime() ?? 0) - (b.idleSince?.getTime() ?? 0) ||
          a.userId.localeCompare(b.userId),
      )[0];
    if (!pick) {
      continue;
    }
    pick.held += 1;
    tick += 1;
    pick.idleSince = new Date(tick);
    byReviewer.set(pick.userId, [...(byReviewer.get(pick.userId) ?? []), conversation.id]);
  }
  return byReviewer;
}

/** How many more conversations the reviewers may take together (how far to read the queue). */
export function freePlaces(reviewers: readonly ReviewerLoad[], capacity: number): number {
  return reviewers
    .filter((r) => isDeskReviewer(r.roles) && r.held < capacity)
    .reduce((sum, r) => sum + capacity - r.held, 0);
}
