import type { AuthoringJob } from '@loopdesk/contracts/routes/authoring.ts';
import type { Refusal } from '../api/authoring.ts';

/** A refused save as the screen shows it. */
export interface Conflict {
  message: string;
  /** The version to save over with 'Keep mine', when this user may still save the job. */
  version: number | null;
}

/** The statuses an annotator's copy can still be saved over (a newer draft, an approved document). */
const ANNOTATABLE: readonly AuthoringJob['status'][] = ['DOCUMENT_APPROVED', 'ANNOTATED_DRAFT'];

/**
 * What a 409 says, worded from the job as it is now (`current`, sent with the refusal): who holds
 * it, where it is. `Keep mine` is offered only to an annotator whose job can still be annotated
 * and that nobody else holds (a hold would refuse the next save again).
 */
export function conflictFrom(refusal: Refusal, keepable: 'annotation' | 'none'): Conflict {
  const { current, holder } = refusal;
  const who = holder?.email ?? holder?.userId;
  return {
    message: [
      refusal.message,
      who ? `It is held by ${who}.` : '',
      current ? `It is now ${current.jobType ?? current.status}.` : '',
    ]
      .filter(Boolean)
      .join(' '),
    version:
      keepable === 'annotation' && current && !holder && ANNOTATABLE.includes(current.status)
        ? current.version
        : null,
  };
}
