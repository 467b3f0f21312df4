import type { AnnotationEntity, JobPurpose } from '@loopdesk/contracts/workbench-payloads.ts';
import type { MessageJob } from './job-data.ts';

/** Default action of the annotate call when no purpose or goal says otherwise (spec 1 §3, §7). */
export const DEFAULT_ACTION = 'execute';

/** Submit action for each purpose (spec 1 §4); reword and normalise answer through quinn actions. */
export const SUBMIT_ACTIONS = {
  full: 'answer',
  'annotate-only': 'suggest_annotations',
  'verify-answered': 'suggest_continue',
  reword: 'suggest_entity_reword',
  normalise: 'suggest_entity_normalisation',
} as const satisfies Record<JobPurpose, string>;

/** Action of an exception raised from a purpose panel (spec 1 §4). */
export const ESCALATION_ACTION = 'suggest_escalation';
/** Action of an exception raised with a custom exception event (spec 1 §4). */
export const FORGET_ACTION = 'suggest_forget';

/** Categories annotate-only hides from the message (spec 1 §5), spelt as the spec gives them. */
export const ANNOTATE_ONLY_HIDDEN_CATEGORIES: readonly string[] = [
  'chief_complaint',
  'dx',
  'sx',
  'associated_sx',
  'nlp_sx',
  'onset',
];

/** Prefix of the annotation title by purpose (spec 1 §2). */
export const PURPOSE_PREFIXES = {
  annotate: 'Annotate purpose: ',
  verify: 'Verify answered: ',
} as const;

/** The action a submit sends: the purpose's action, else the conversation goal, else 'execute'. */
export function submitAction(purpose: JobPurpose | undefined, goal?: string): string {
  if (purpose !== undefined) {
    return SUBMIT_ACTIONS[purpose];
  }
  return goal !== undefined && goal !== '' ? goal : DEFAULT_ACTION;
}

/** The action an exception sends: 'suggest_forget' with a custom exception event, else 'suggest_escalation'. */
export function exceptionAction(customEvent: boolean): string {
  return customEvent ? FORGET_ACTION : ESCALATION_ACTION;
}

/** Label of the exception button when the job sets no custom exception label. */
export const DEFAULT_EXCEPTION_LABEL = 'Exception';

/**
 * The custom exception label that applies to a job (spec 1 §4 "custom exception label"): the
 * job's `job.exceptionLabel`, on a message.annotation.job with a purpose only, since only its
 * exception carries an action ('suggest_forget' instead of 'suggest_escalation'). Elsewhere the
 * exception's shape is fixed ({action:'exception'}), so the label is ignored.
 */
export function customExceptionLabel(
  jobType: string,
  view: Pick<MessageJob, 'purpose' | 'exceptionLabel'>,
): string | undefined {
  return jobType === 'message.annotation.job' && view.purpose !== undefined
    ? view.exceptionLabel
    : undefined;
}

/** Whether the purpose shows the hotkey menu: verify-answered shows none. */
export function showsMenu(purpose: JobPurpose | undefined): boolean {
  return purpose !== 'verify-answered';
}

/**
 * The annotations a panel starts with: none for verify-answered; for annotate-only, the given
 * ones without the hidden categories; otherwise all of them.
 */
export function initialEntities(
  purpose: JobPurpose | undefined,
  entities: readonly AnnotationEntity[],
): AnnotationEntity[] {
  if (purpose === 'verify-answered') {
    return [];
  }
  if (purpose === 'annotate-only') {
    return entities.filter((e) => !ANNOTATE_ONLY_HIDDEN_CATEGORIES.includes(e.category));
  }
  return [...entities];
}

/** Title prefix for the purpose, or '' when it has none. */
export function purposePrefix(purpose: JobPurpose | undefined): string {
  if (purpose === 'annotate-only') {
    return PURPOSE_PREFIXES.annotate;
  }
  if (purpose === 'verify-answered') {
    return PURPOSE_PREFIXES.verify;
  }
  return '';
}
