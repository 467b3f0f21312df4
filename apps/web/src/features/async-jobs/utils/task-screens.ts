import {
  JOB_TYPE_PREFIX,
  SUBMISSIONS,
  isStruck,
  type AsyncTask,
  type SubmissionKind,
} from '@loopdesk/contracts/async-jobs.ts';

/** Every task screen of spec 3 §2 "Task screen selection". */
export type TaskScreenId =
  | 'rephrase'
  | 'rephrase.approval'
  | 'annotation'
  | 'annotation.approval'
  | 'normalisation'
  | 'observations'
  | 'relationships'
  | 'relationships.approval'
  | 'complications'
  | 'complications.approval'
  | 'questions'
  | 'questions.approval'
  | 'location'
  | 'location.review'
  | 'differential'
  | 'conversation.annotation'
  | 'medications'
  | 'symptoms';

const PENDING_APPROVAL = ['PENDING_INTERNAL_APPROVAL', 'PENDING_EXTERNAL_APPROVAL'];
const PENDING_REVIEW = ['PENDING_INTERNAL_REVIEW', 'PENDING_EXTERNAL_REVIEW'];

/** The screen for a task's jobType and state (spec 3 §2); undefined for an unknown type. */
export function screenFor(jobType: string, state: string): TaskScreenId | undefined {
  if (!jobType.startsWith(JOB_TYPE_PREFIX)) {
    return undefined;
  }
  switch (jobType.slice(JOB_TYPE_PREFIX.length)) {
    case 'text.rephrase':
      return state === 'PENDING_APPROVAL' ? 'rephrase.approval' : 'rephrase';
    case 'text.annotation':
      return state === 'PENDING_APPROVAL' ? 'annotation.approval' : 'annotation';
    case 'entity.normalisation':
      return 'normalisation';
    case 'condition.observations':
      if (state === 'OBSERVATIONS_ADDED') {
        return 'relationships';
      }
      return PENDING_APPROVAL.includes(state) ? 'relationships.approval' : 'observations';
    case 'condition.complications':
      return PENDING_APPROVAL.includes(state) ? 'complications.approval' : 'complications';
    case 'observation.questions':
      return PENDING_APPROVAL.includes(state) ? 'questions.approval' : 'questions';
    case 'clinical.location':
      return PENDING_REVIEW.includes(state) ? 'location.review' : 'location';
    case 'clinical.differential':
      return 'differential';
    case 'conversation.annotation':
      return 'conversation.annotation';
    case 'condition.medications':
      return 'medications';
    case 'condition.symptoms':
      return 'symptoms';
    default:
      return undefined;
  }
}

/** The fallback's text for a task without a built screen (spec 3 §2). */
export function noJobFound(task: Pick<AsyncTask, 'jobType'>): string {
  return `No job found for ${task.jobType}`;
}

export type CheckResult = { ok: true; data: unknown } | { ok: false; error: string };

/** Checks a submit body against its contract; the error is the first rule's message. */
export function checkSubmission(kind: SubmissionKind, data: unknown): CheckResult {
  const parsed = SUBMISSIONS[kind].safeParse(data);
  if (parsed.success) {
    return { ok: true, data: parsed.data };
  }
  return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid submission.' };
}

/** A step name as shown: underscores as spaces (spec 3 §2). */
export function stepLabel(name: string): string {
  return name.replace(/_/g, ' ');
}

/** A plain string field of a task record, or '' when absent. */
export function textOf(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  return typeof value === 'string' ? value : '';
}

export interface ListItem {
  id: string;
  text: string;
  /** Struck out by an earlier step (`removed: true` on the task): shown struck, can be kept. */
  struck?: true;
}

/**
 * Items `{ id, text | name }` of a task list (condition.complications, data.questions,
 * condition.medications…); anything else is skipped.
 */
export function itemsOf(record: Record<string, unknown>, key: string): ListItem[] {
  const value = record[key];
  if (!Array.isArray(value)) {
    return [];
  }
  const items: ListItem[] = [];
  for (const entry of value as unknown[]) {
    if (entry && typeof entry === 'object') {
      const item = entry as Record<string, unknown>;
      const text = textOf(item, 'text') || textOf(item, 'name') || textOf(item, 'complication');
      const id = textOf(item, 'id');
      if (id && text) {
        items.push(isStruck(item) ? { id, text, struck: true } : { id, text });
      }
    }
  }
  return items;
}

/** A fresh id for an item added on a screen (unique across steps, even without crypto.randomUUID). */
export function newItemId(): string {
  return typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Toggles `id` in a set (removal marks, checks). */
export function toggled(set: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(set);
  if (next.has(id)) {
    next.delete(id);
  } else {
    next.add(id);
  }
  return next;
}
