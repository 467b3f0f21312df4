import {
  SUBMISSIONS,
  isStruck,
  type AsyncTask,
  type Pipeline,
  type SubmissionKind,
  type TaskScreenKind,
} from '@loopdesk/contracts/async-jobs.ts';

/**
 * The screen of a task (spec 3 §2 "Task screen selection"): the one the server names for the step
 * the task waits in (`task.lock`), read from the served pipelines (`GET /pipelines`), so the web
 * keeps no table of its own. Undefined when the pipelines do not list that step.
 */
export function screenOf(
  pipelines: readonly Pipeline[],
  task: Pick<AsyncTask, 'lock'>,
): TaskScreenKind | undefined {
  const pipeline = pipelines.find((candidate) => candidate.id === task.lock.pipeline);
  return pipeline?.definition.main.steps.find((step) => step.name === task.lock.step)?.screen;
}

/** Where a task sits, in words: its pipeline, its step and what the step asks (issue 20 point 18). */
export interface TaskPlace {
  pipeline: string;
  step: string;
  instruction: string;
}

/** The place of a task in the served pipelines; undefined when they do not list its step. */
export function placeOf(
  pipelines: readonly Pipeline[],
  task: Pick<AsyncTask, 'lock'>,
): TaskPlace | undefined {
  const pipeline = pipelines.find((candidate) => candidate.id === task.lock.pipeline);
  const step = pipeline?.definition.main.steps.find((s) => s.name === task.lock.step);
  return pipeline && step
    ? { pipeline: pipeline.name, step: stepLabel(step.name), instruction: step.description }
    : undefined;
}

/**
 * What a task is about, for a list or a toast: its condition, observation or text (cut to a
 * readable length); '' when it has none of these.
 */
export function taskSubject(task: Pick<AsyncTask, 'data' | 'condition'>): string {
  const subject =
    textOf(task.data, 'condition') ||
    textOf(task.condition, 'name') ||
    textOf(task.data, 'observation') ||
    textOf(task.data, 'display') ||
    textOf(task.data, 'text');
  const trimmed = subject.trim().replace(/\s+/g, ' ');
  return trimmed.length > 48 ? `${trimmed.slice(0, 47)}…` : trimmed;
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

/**
 * A step name as shown: underscores as spaces (spec 3 §2), capitalised like the pipelines'
 * section titles ('add_complications' → 'Add complications'; issue 20 point 22).
 */
export function stepLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
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
