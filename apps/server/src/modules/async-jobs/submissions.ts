import { randomUUID } from 'node:crypto';
import {
  RESULT_MINIMUMS,
  isStruck,
  type AsyncEntity,
  type AsyncTask,
  type Submission,
  type SubmissionKind,
} from '@loopdesk/contracts/async-jobs.ts';

/** What a submit changes on a task: the next step's screen reads these. */
export interface TaskContent {
  data: Record<string, unknown>;
  annotations: { entities: unknown[] };
  condition: Record<string, unknown>;
  locations: Record<string, unknown>;
}

interface Item {
  id: string;
  [key: string]: unknown;
}

const list = (value: unknown): Item[] =>
  Array.isArray(value)
    ? value.filter((v): v is Item => typeof v === 'object' && v !== null && 'id' in v)
    : [];
const withId = <T extends object>(item: T): T & { id: string } => ({ id: randomUUID(), ...item });
/** An item marked struck out (`removed: true`), or unmarked. */
const mark = (item: Item, struck: boolean): Item => {
  const { removed: _removed, ...rest } = item;
  return struck ? { ...rest, id: item.id, removed: true } : { ...rest, id: item.id };
};
/**
 * Existing items, the removed ids marked struck out (they stay, so later steps show them and can
 * keep them: `restored`), plus the new ones.
 */
const revise = (
  existing: unknown,
  removed: readonly string[],
  added: Item[],
  restored: readonly string[] = [],
): Item[] => [
  ...list(existing).map((item) =>
    removed.includes(item.id)
      ? mark(item, true)
      : restored.includes(item.id)
        ? mark(item, false)
        : item,
  ),
  ...added,
];

/**
 * Applies a validated submission to the task's content. Every submission is also kept whole in
 * the change log; this is what the next step shows.
 */
export function applySubmission(kind: SubmissionKind, task: AsyncTask, body: unknown): TaskContent {
  const content: TaskContent = {
    data: { ...task.data },
    annotations: { entities: [...task.annotations.entities] },
    condition: { ...task.condition },
    locations: { ...task.locations },
  };
  switch (kind) {
    case 'rephrase': {
      const b = body as Submission<'rephrase'>;
      content.data.rephrases = b.rephrases;
      break;
    }
    case 'rephrase.approval': {
      const b = body as Submission<'rephrase.approval'>;
      content.data.rephrases = b.rephrases.filter((r) => !b.rephrases_removed.includes(r));
      content.data.rephrasesRemoved = b.rephrases_removed;
      content.data.intents = b.intents;
      break;
    }
    case 'annotation': {
      const b = body as Submission<'annotation'>;
      content.annotations.entities = b.annotations.entities;
      break;
    }
    case 'annotation.approval': {
      const b = body as Submission<'annotation.approval'>;
      const byId = new Map<string, AsyncEntity>(
        (content.annotations.entities as AsyncEntity[]).map((e) => [e.id, e]),
      );
      for (const e of b.approved.entities) {
        byId.set(e.id, { ...byId.get(e.id), ...e, state: 'APPROVED' });
      }
      for (const e of b.modified.entities) {
        byId.set(e.id, { ...byId.get(e.id), ...e, modified: true });
      }
      for (const e of b.added.entities) {
        byId.set(e.id, { ...e, added: true });
      }
      for (const e of b.deleted.entities) {
        byId.set(e.id, { ...byId.get(e.id), ...e, state: 'DELETED' });
      }
      content.annotations.entities = [...byId.values()];
      break;
    }
    case 'normalisation':
    case 'normalisation.approval': {
      const b = body as Submission<'normalisation'>;
      const byId = new Map(b.normalised.entities.map((e) => [e.id, e]));
      content.annotations.entities = (content.annotations.entities as AsyncEntity[]).map((e) => {
        const n = byId.get(e.id);
        return n
          ? {
              ...e,
              conceptId: n.conceptId ?? null,
              conceptName: n.conceptName ?? null,
              state: n.state,
              ...(n.unableToNormalise ? { unableToNormalise: true } : {}),
            }
          : e;
      });
      break;
    }
    case 'observations': {
      const b = body as Submission<'observations'>;
      content.condition.observations = [
        ...list(content.condition.observations),
        ...b.observations.map((o) =>
          withId({
            name: o.observation,
            cui: o.observationCUI ?? null,
            observationClass: o.observationClass,
            correlation: 'Positive',
            weight: 'Medium',
          }),
        ),
      ];
      break;
    }
    case 'relationships':
    case 'relationships.approval': {
      const b = body as Submission<'relationships'>;
      // Struck observations stay, marked; one sent again as kept is unmarked (restored).
      const submitted = new Map(b.observations.map((o) => [o.id, o]));
      const existing = list(content.condition.observations);
      const known = new Set(existing.map((o) => o.id));
      content.condition.observations = [
        ...existing.map((o) => {
          const sent = submitted.get(o.id);
          return b.removedObservations.includes(o.id)
            ? mark(sent ?? o, true)
            : sent
              ? mark({ ...sent }, false)
              : o;
        }),
        ...b.observations.filter((o) => !known.has(o.id) && !b.removedObservations.includes(o.id)),
      ];
      break;
    }
    case 'complications': {
      const b = body as Submission<'complications'>;
      content.condition.complications = [
        ...list(content.condition.complications),
        ...b.complications.map((c) =>
          withId({ name: c.complication, cui: c.complicationCUI ?? null }),
        ),
      ];
      break;
    }
    case 'complications.approval': {
      const b = body as Submission<'complications.approval'>;
      content.condition.complications = revise(
        content.condition.complications,
        b.complications_removed,
        b.complications.map((c) =>
          withId({ name: c.complication, cui: c.complicationCUI ?? null }),
        ),
        b.complications_restored,
      );
      break;
    }
    case 'questions': {
      const b = body as Submission<'questions'>;
      content.data.questions = [
        ...list(content.data.questions),
        ...b.questions.map((q) => withId({ text: q.text })),
      ];
      break;
    }
    case 'questions.approval': {
      const b = body as Submission<'questions.approval'>;
      content.data.questions = revise(
        content.data.questions,
        b.questions_removed,
        b.questions.map((q) => withId({ text: q.text })),
        b.questions_restored,
      );
      break;
    }
    case 'location': {
      const b = body as Submission<'location'>;
      content.locations = { ...b.locations };
      break;
    }
    case 'differential': {
      const b = body as Submission<'differential'>;
      content.data.differential = [...b.differential].sort((x, y) => x.rank - y.rank);
      break;
    }
    case 'conversation.annotation': {
      const b = body as Submission<'conversation.annotation'>;
      content.data.decodedObservations = b.decodedObservations;
      content.data.extendedObservations = b.extendedObservations;
      break;
    }
    case 'medications': {
      const b = body as Submission<'medications'>;
      content.condition.medications = revise(
        content.condition.medications,
        b.medications_removed,
        b.medications.map((m) => withId({ text: m.text })),
      );
      break;
    }
    case 'symptoms': {
      const b = body as Submission<'symptoms'>;
      content.condition.symptoms = revise(
        content.condition.symptoms,
        b.symptoms_removed,
        b.symptoms.map((m) => withId({ text: m.text })),
      );
      break;
    }
  }
  return content;
}

/**
 * The publish minimum an approval step breaks (RESULT_MINIMUMS: e.g. every complication struck
 * out and none added), or undefined when the task still holds enough.
 */
export function resultShortfall(
  kind: SubmissionKind,
  content: TaskContent,
): { path: string; message: string } | undefined {
  const minimum = RESULT_MINIMUMS[kind];
  if (!minimum) {
    return undefined;
  }
  const held =
    minimum.list === 'questions' ? content.data.questions : content.condition.complications;
  return list(held).filter((item) => !isStruck(item)).length < minimum.count
    ? { path: `body.data.${minimum.list}`, message: minimum.message }
    : undefined;
}
