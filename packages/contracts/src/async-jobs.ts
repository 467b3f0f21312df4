import { z } from 'zod';

/**
 * Asynchronous job pipelines (spec 3 §2, §3, §7): the wire shapes of `/internal/async-jobs`, and
 * the submit body of every task screen. The pipeline definitions themselves live in the server
 * (apps/server/src/modules/async-jobs/pipelines.ts); docs/async-pipelines.md draws their states.
 */

export const JOB_TYPE_PREFIX = 'hitl.jobs.async.';

/** The task types of spec 3 §2 "Task screen selection", one pipeline each. */
export const ASYNC_TASK_TYPES = [
  'text.rephrase',
  'text.annotation',
  'condition.observations',
  'condition.complications',
  'entity.normalisation',
  'observation.questions',
  'clinical.location',
  'clinical.differential',
  'conversation.annotation',
  'condition.medications',
  'condition.symptoms',
] as const;
export const AsyncTaskType = z.enum(ASYNC_TASK_TYPES);
export type AsyncTaskType = z.infer<typeof AsyncTaskType>;

/** Task states: spec 3 §4, plus the two ends a submit or a discard reaches. */
export const ASYNC_TASK_STATES = [
  'REGISTERED',
  'PENDING_APPROVAL',
  'OBSERVATIONS_ADDED',
  'PENDING_INTERNAL_APPROVAL',
  'PENDING_EXTERNAL_APPROVAL',
  'PENDING_INTERNAL_REVIEW',
  'PENDING_EXTERNAL_REVIEW',
  'COMPLETED',
  'DISCARDED',
] as const;
export const AsyncTaskState = z.enum(ASYNC_TASK_STATES);
export type AsyncTaskState = z.infer<typeof AsyncTaskState>;

/** New-task constants (spec 3 §9). */
export const NEW_TASK_VERSION = '0.0.1';
export const NEW_TASK_JOB_CLASS = 'clinical';
/** The dashboard's label for an empty step, and the message of an empty `_pop` (spec 3 §8). */
export const JOB_QUEUE_EMPTY = 'Job queue empty';
export const DISCARD_NOTE_REQUIRED = 'Please add a note.';
/**
 * Spec 3 §5: adding a rephrase is meant to need more than 3 characters. The original's check
 * never fired; here the screen and the server both enforce it (docs/decisions.md).
 */
export const PHRASE_TOO_SHORT = 'Must be more than 3 characters.';

/** Which submit body a step's screen sends (spec 3 §7 "Submit bodies by task type"). */
export const SUBMISSION_KINDS = [
  'rephrase',
  'rephrase.approval',
  'annotation',
  'annotation.approval',
  'normalisation',
  'normalisation.approval',
  'observations',
  'relationships',
  'relationships.approval',
  'complications',
  'complications.approval',
  'questions',
  'questions.approval',
  'location',
  'differential',
  'conversation.annotation',
  'medications',
  'symptoms',
] as const;
export type SubmissionKind = (typeof SUBMISSION_KINDS)[number];

/**
 * Which screen shows a task that waits in a step (spec 3 §2 "Task screen selection"). Each step of
 * a pipeline names its screen, and the web picks the screen by this value alone.
 */
export const TASK_SCREEN_KINDS = [
  'rephrase',
  'rephrase.approval',
  'annotation',
  'annotation.approval',
  'normalisation',
  'observations',
  'relationships',
  'relationships.approval',
  'complications',
  'complications.approval',
  'questions',
  'questions.approval',
  'location',
  'location.review',
  'differential',
  'conversation.annotation',
  'medications',
  'symptoms',
] as const;
export type TaskScreenKind = (typeof TASK_SCREEN_KINDS)[number];

// ---------------------------------------------------------------------------------------------
// Pipelines

export const PipelineStep = z.object({
  name: z.string(),
  description: z.string(),
  /** The state a task is in while it waits in this step. */
  state: AsyncTaskState,
  /** Approval and review steps also need jobs:async:approve. */
  approval: z.boolean(),
  submission: z.enum(SUBMISSION_KINDS),
  /** The screen that shows the step's task (several steps may share one). */
  screen: z.enum(TASK_SCREEN_KINDS),
});
export type PipelineStep = z.infer<typeof PipelineStep>;

export const InputFormField = z.object({
  name: z.enum(['condition', 'reference', 'notes']),
  label: z.string(),
  kind: z.enum(['typeahead', 'text', 'multiline']),
  required: z.boolean(),
});

export const InputForm = z.object({ title: z.string(), fields: z.array(InputFormField) });
export type InputForm = z.infer<typeof InputForm>;

/** A pipeline: definition {input.form, main.steps} (spec 3 §3 Pipeline). */
export const Pipeline = z.object({
  id: z.number().int(),
  name: z.string(),
  type: AsyncTaskType,
  jobType: z.string(),
  definition: z.object({
    input: z.object({ form: InputForm }).optional(),
    main: z.object({ steps: z.array(PipelineStep) }),
  }),
});
export type Pipeline = z.infer<typeof Pipeline>;

export const PipelineList = z.object({ items: z.array(Pipeline) });
export type PipelineList = z.infer<typeof PipelineList>;

/** `GET /pipelines/{id}`: the definition and, per step in order, `{ [stepName]: { jobs } }`. */
export const PipelineWithStats = Pipeline.extend({
  stats: z.object({
    steps: z.array(
      z.record(
        z.string(),
        /** `jobs`: free tasks 'Take Next Job' can take; `taken`: tasks leased to someone now. */
        z.object({ jobs: z.number().int(), taken: z.number().int() }),
      ),
    ),
  }),
});
export type PipelineWithStats = z.infer<typeof PipelineWithStats>;

export const PipelineParams = z.object({ pipelineId: z.string() });
export type PipelineParams = z.infer<typeof PipelineParams>;
export const StepParams = PipelineParams.extend({ step: z.string() });
export type StepParams = z.infer<typeof StepParams>;
export const TaskParams = StepParams.extend({ taskId: z.string() });
export type TaskParams = z.infer<typeof TaskParams>;

// ---------------------------------------------------------------------------------------------
// Tasks

/** Async annotation categories (spec 3 §9). */
export const ASYNC_ANNOTATION_CATEGORIES = [
  'Symptom',
  'Associated symptom',
  'Onset',
  'Onset context',
  'Diagnosis',
  'Medication',
  'Anatomical location',
  'Quality',
] as const;
export type AsyncAnnotationCategory = (typeof ASYNC_ANNOTATION_CATEGORIES)[number];
/** The categories whose annotation gets a concept from the picker (spec 3 §9). */
export const CONCEPT_PICKER_CATEGORIES: readonly AsyncAnnotationCategory[] = [
  'Symptom',
  'Associated symptom',
  'Diagnosis',
  'Medication',
];

/** Async annotation entity (spec 3 §3). */
export const AsyncEntity = z.object({
  id: z.string().min(1),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  extract: z.string(),
  category: z.enum(ASYNC_ANNOTATION_CATEGORIES),
  conceptId: z.string().nullish(),
  conceptName: z.string().nullish(),
  checked: z.boolean().optional(),
  modified: z.boolean().optional(),
  added: z.boolean().optional(),
  state: z.enum(['NORMALISED', 'APPROVED', 'DELETED']).optional(),
});
export type AsyncEntity = z.infer<typeof AsyncEntity>;

/** Observation relationship (spec 3 §3). */
export const ObservationRelationship = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1, 'Every observation needs a name.'),
  cui: z.string().nullish(),
  observationClass: z.string().min(1),
  correlation: z.enum(['Positive', 'Negative']),
  weight: z.enum(['Low', 'Medium', 'High']),
});
export type ObservationRelationship = z.infer<typeof ObservationRelationship>;

/** A location list item: `{ display, bid }` or `{ coding: { display }, bid }` (spec 3 §3). */
export const LocationItem = z.union([
  z.object({ display: z.string().min(1), bid: z.string().nullish(), code: z.string().nullish() }),
  z.object({ coding: z.object({ display: z.string().min(1) }), bid: z.string().nullish() }),
]);
export type LocationItem = z.infer<typeof LocationItem>;

export const Locations = z.object({
  pathologicalProcesses: z.array(LocationItem),
  bodySystems: z.array(LocationItem),
  anatomicalLocations: z.array(LocationItem),
});
export type Locations = z.infer<typeof Locations>;

export const ChangeLogEntry = z.object({
  action: z.enum(['CREATED', 'TAKEN', 'SUBMITTED', 'DISCARDED', 'LOCK_EXPIRED', 'RELEASED']),
  user: z.object({ id: z.string().nullable(), email: z.string().nullable() }),
  at: z.string(),
  step: z.string(),
  fromState: AsyncTaskState.nullable(),
  toState: AsyncTaskState,
  note: z.string().optional(),
  data: z.unknown().optional(),
});
export type ChangeLogEntry = z.infer<typeof ChangeLogEntry>;

/** A task (spec 3 §3 Task). `lease` says who holds it until when (null when free). */
export const AsyncTask = z.object({
  id: z.string(),
  type: AsyncTaskType,
  jobType: z.string(),
  jobClass: z.string(),
  state: AsyncTaskState,
  version: z.string(),
  changeLog: z.array(ChangeLogEntry),
  metadata: z.record(z.string(), z.unknown()),
  createdOn: z.string(),
  lock: z.object({ pipeline: z.number().int(), step: z.string() }),
  lease: z.object({ holder: z.string(), expiresAt: z.string() }).nullable(),
  data: z.record(z.string(), z.unknown()),
  annotations: z.object({ entities: z.array(z.unknown()) }),
  condition: z.record(z.string(), z.unknown()),
  locations: z.record(z.string(), z.unknown()),
  completedOn: z.string().nullable(),
  discardedNote: z.string().nullable(),
  /** The holder's unsaved screen edits (issue 20 point 17), kept until submit, discard or release. */
  draft: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type AsyncTask = z.infer<typeof AsyncTask>;

/** `POST /pipelines/{id}/_add_task`: the new task payload (spec 3 §3). */
export const AddTaskBody = z.object({
  data: z.object({
    // The message also when the field is missing or not a string.
    condition: z
      .string({ error: 'Please choose a condition.' })
      .trim()
      .min(1, 'Please choose a condition.'),
    reference: z
      .string({ error: 'Please add the source material.' })
      .trim()
      .min(1, 'Please add the source material.'),
    notes: z.string().nullish(),
    cui: z.string().nullish(),
  }),
  createdOn: z.string().optional(),
  jobType: z.string().optional(),
  jobClass: z.literal(NEW_TASK_JOB_CLASS).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  state: z.literal('REGISTERED').optional(),
  version: z.literal(NEW_TASK_VERSION).optional(),
  changeLog: z.array(z.unknown()).optional(),
});
export type AddTaskBody = z.infer<typeof AddTaskBody>;

/** `POST …/tasks/{taskId}`: `{ id, data }`; `data` is checked against the step's submission. */
export const SubmitTaskBody = z.object({ id: z.string().min(1), data: z.unknown() });
export type SubmitTaskBody = z.infer<typeof SubmitTaskBody>;

/** `DELETE …/tasks/{taskId}?reason=`: the discard note. */
export const DiscardTaskQuery = z.object({ reason: z.string().optional() });

// ---------------------------------------------------------------------------------------------
// Submit bodies (spec 3 §7), with the screens' messages of spec 3 §5 where the rule is the same.

/** The intents of rephrase approval (spec 3 §2). */
export const REPHRASE_INTENTS = [
  'clinical+medical',
  'injury',
  'exposure',
  'mental',
  'medication',
  'maintenance',
  'workers_comp',
  'screen',
  'cosmetic',
  'other',
] as const;
const ids = z.array(z.string().min(1));
const entities = z.object({ entities: z.array(AsyncEntity) });
const text = (message: string) => z.string().trim().min(1, message);
/** One item of a multiline box: the screens make an item of every line (spec 3 §2). */
const line = (message: string, item: string) =>
  text(message).refine((value) => !/[\r\n]/.test(value), `Each ${item} is one line of text.`);

const NormalisedEntity = z.object({
  id: z.string().min(1),
  conceptId: z.string().nullish(),
  conceptName: z.string().nullish(),
  state: z.enum(['NORMALISED', 'APPROVED', 'DELETED']),
  /** Marked "unable to normalise" on the screen. */
  unableToNormalise: z.boolean().optional(),
});

export const SUBMISSIONS = {
  rephrase: z.object({
    rephrases: z
      .array(z.string().trim().min(4, PHRASE_TOO_SHORT))
      .min(2, 'Add at least 2 rephrases.'),
  }),
  'rephrase.approval': z.object({
    rephrases_removed: z.array(z.string()),
    rephrases: z.array(text('A rephrase cannot be empty.')),
    intents: z.array(z.enum(REPHRASE_INTENTS)).min(1, 'Please choose an intent.'),
  }),
  annotation: z.object({ annotations: entities }),
  'annotation.approval': z.object({
    approved: entities,
    added: entities,
    modified: entities,
    deleted: entities,
  }),
  normalisation: z.object({
    normalised: z.object({
      entities: z
        .array(NormalisedEntity)
        .refine(
          (list) => list.every((e) => e.unableToNormalise === true || Boolean(e.conceptId)),
          'Every entity needs a concept or must be marked unable to normalise.',
        ),
    }),
  }),
  // Spec 3 §4: the approval of a normalisation job is ready to publish at once.
  'normalisation.approval': z.object({
    normalised: z.object({ entities: z.array(NormalisedEntity) }),
  }),
  observations: z.object({
    observations: z
      .array(
        z.object({
          observation: text('Please complete both observation and observation class.'),
          observationCUI: z.string().nullish(),
          observationClass: text('Please complete both observation and observation class.'),
        }),
      )
      .min(1, 'Add at least 1 observation.'),
  }),
  relationships: z.object({
    removedObservations: ids,
    observations: z.array(ObservationRelationship).min(1, 'Add at least 1 observation.'),
  }),
  // Spec 3 §5 "Relationship screens": the approval screens keep at least 1 observation too.
  'relationships.approval': z.object({
    removedObservations: ids,
    observations: z.array(ObservationRelationship).min(1, 'Add at least 1 observation.'),
  }),
  complications: z.object({
    complications: z
      .array(
        z.object({
          complication: text('Please enter complication.'),
          complicationCUI: z.string().nullish(),
        }),
      )
      .min(1, 'Add at least 1 complication.'),
  }),
  'complications.approval': z.object({
    complications_removed: ids,
    /** Complications struck out in an earlier step that this approval keeps after all. */
    complications_restored: ids.default([]),
    complications: z.array(
      z.object({
        complication: text('Please enter complication.'),
        complicationCUI: z.string().nullish(),
      }),
    ),
  }),
  questions: z.object({
    questions: z
      .array(z.object({ text: text('Please add a question.') }))
      .min(2, 'Add at least 2 questions.'),
  }),
  'questions.approval': z.object({
    questions_removed: ids,
    /** Questions struck out in an earlier step that this approval keeps after all. */
    questions_restored: ids.default([]),
    questions: z.array(z.object({ text: text('Please add a question.') })),
  }),
  location: z.object({ locations: Locations }),
  differential: z.object({
    differential: z
      .array(
        z.object({
          name: z.string().trim().min(1).optional(),
          code: z.string().min(1).optional(),
          rank: z.number().int().min(1),
        }),
      )
      .min(1, 'Choose at least 1 diagnosis.')
      .refine(
        (list) => list.every((e) => e.name ?? e.code),
        'Every diagnosis needs a name or a code.',
      ),
  }),
  'conversation.annotation': z.object({
    decodedObservations: z.array(z.object({ conceptId: z.string().min(1), name: z.string() })),
    extendedObservations: z.array(z.object({ conceptId: z.string().min(1), name: z.string() })),
  }),
  medications: z.object({
    medications_removed: ids,
    medications: z.array(z.object({ text: line('Please add a medication.', 'medication') })),
  }),
  symptoms: z.object({
    symptoms_removed: ids,
    symptoms: z.array(z.object({ text: line('Please add a symptom.', 'symptom') })),
  }),
} as const satisfies Record<SubmissionKind, z.ZodType>;

export type Submission<K extends SubmissionKind> = z.infer<(typeof SUBMISSIONS)[K]>;

/**
 * An item of a task's list (observations, complications, questions, medications, symptoms) that
 * a step struck out carries `removed: true`: it stays in the list, so the approval steps show it
 * struck through and can keep it after all; only the last step's list is written back.
 */
export const isStruck = (item: unknown): boolean =>
  typeof item === 'object' && item !== null && (item as { removed?: unknown }).removed === true;

/**
 * Publish minimums of spec 3 §5 and §9 that an approval step must leave in place: its body names
 * only removals and additions, so the rule is on what the task holds after the step.
 */
export const RESULT_MINIMUMS: Partial<
  Record<SubmissionKind, { list: 'complications' | 'questions'; count: number; message: string }>
> = {
  'complications.approval': {
    list: 'complications',
    count: 1,
    message: 'Keep or add at least 1 complication.',
  },
  'questions.approval': {
    list: 'questions',
    count: 2,
    message: 'Keep or add at least 2 questions.',
  },
};
