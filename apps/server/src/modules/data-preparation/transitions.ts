import type { DataPreparationStatus } from '@loopdesk/contracts/data-preparation.ts';
import { canAccess, type Privilege } from '@loopdesk/contracts/privileges.ts';

/** One allowed move of a data preparation job (spec 2 §4) and who may make it. */
export interface Transition {
  readonly from: DataPreparationStatus;
  readonly to: DataPreparationStatus;
  readonly privilege: Privilege;
  /** What the move is, in a person's words ('approve', 'submit'…). */
  readonly verb: string;
  /** Four eyes (docs/data-preparation.md): never by the person who prepared the document. */
  readonly fourEyes: boolean;
  /** The move records its maker as the preparer or the reviewer. */
  readonly records?: 'preparer' | 'reviewer';
}

/**
 * The moves of spec 2 §4 up to DOCUMENT_APPROVED. The annotation moves (spec 2 §4 "Authoring job
 * status mapping") are the authoring module's (`/internal/authoring/jobs/{key}/draft|submit|
 * review`, docs/authoring.md): they hold the job, check the spans and concepts and keep a
 * version, which this call does not. A job already REJECTED or approved moves no further here.
 */
export const TRANSITIONS: readonly Transition[] = [
  {
    from: 'REGISTERED',
    to: 'REGISTERED',
    privilege: 'jobs:preparation:perform',
    verb: 'save',
    fourEyes: false,
  },
  {
    from: 'REGISTERED',
    to: 'PREPARED_FOR_REVIEW',
    privilege: 'jobs:preparation:perform',
    verb: 'submit',
    fourEyes: false,
    records: 'preparer',
  },
  {
    from: 'REGISTERED',
    to: 'REJECTED',
    privilege: 'jobs:preparation:perform',
    verb: 'reject',
    fourEyes: false,
    records: 'preparer',
  },
  {
    from: 'PREPARED_FOR_REVIEW',
    to: 'DOCUMENT_APPROVED',
    privilege: 'jobs:preparation:review',
    verb: 'approve',
    fourEyes: true,
    records: 'reviewer',
  },
  {
    from: 'PREPARED_FOR_REVIEW',
    to: 'REJECTED',
    privilege: 'jobs:preparation:review',
    verb: 'reject',
    fourEyes: true,
    records: 'reviewer',
  },
];

/** Why a move is refused, or null when `roles` (and who they are) may make it. */
export type Refusal =
  | { readonly status: 409; readonly message: string }
  | { readonly status: 403; readonly message: string };

/** The statuses whose moves are the authoring module's (issue 13). */
const ANNOTATION_STATUSES: ReadonlySet<DataPreparationStatus> = new Set([
  'ANNOTATED_DRAFT',
  'ANNOTATED_FOR_REVIEW',
  'ANNOTATION_APPROVED',
]);

/** The transition from → to, or a refusal (409 for a move spec 2 §4 does not have). */
export function transitionFor(
  from: DataPreparationStatus,
  to: DataPreparationStatus,
): Transition | Refusal {
  if (ANNOTATION_STATUSES.has(to) || ANNOTATION_STATUSES.has(from)) {
    return {
      status: 409,
      message: `Annotations are saved through the authoring calls, not this one: POST /internal/authoring/jobs/{key}/draft, …/submit or …/review (docs/authoring.md). This job is in status ${from}.`,
    };
  }
  const found = TRANSITIONS.find((t) => t.from === from && t.to === to);
  if (found) {
    return found;
  }
  const allowed = TRANSITIONS.filter((t) => t.from === from && t.to !== from).map((t) => t.to);
  return {
    status: 409,
    message: `A job in status ${from} cannot move to ${to}${
      allowed.length > 0
        ? `: it can move to ${allowed.join(' or ')}.`
        : ': its preparation is finished.'
    } Reload the job to see its status.`,
  };
}

/** Whether this user may make the move: its privilege, and four eyes where it applies. */
export function refusalOf(
  transition: Transition,
  user: { id: string; roles: readonly string[] },
  preparedBy: string | null,
): Refusal | null {
  if (!canAccess(user.roles, { anyOf: [transition.privilege] })) {
    return {
      status: 403,
      message: `To ${transition.verb} a document you need the privilege ${transition.privilege}.`,
    };
  }
  if (transition.fourEyes && preparedBy === user.id) {
    return {
      status: 403,
      message: `You prepared this document, so you cannot ${transition.verb} it: another reviewer must (four eyes).`,
    };
  }
  return null;
}

export const isRefusal = (value: Transition | Refusal): value is Refusal => 'status' in value;
