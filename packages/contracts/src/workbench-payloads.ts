import { z } from 'zod';

/** Presence of an annotated finding (spec 1 §3, §9): endorse, deny or unsure. */
export const Presence = z.enum(['endorse', 'deny', 'unsure']);
export type Presence = z.infer<typeof Presence>;

/** A concept linked to an entity (spec 1 §3 Concept on an entity). */
export const EntityConcept = z.object({
  id: z.string(),
  code: z.object({ code: z.string(), system: z.string() }),
  text: z.string().optional(),
  value: z.string().optional(),
});
export type EntityConcept = z.infer<typeof EntityConcept>;

/**
 * An annotation (entity) in a patient message (spec 1 §3): offsets count message text only,
 * `end` is exclusive, so `extract` is `text.slice(start, end)`.
 */
export const AnnotationEntity = z
  .object({
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    extract: z.string().min(1),
    category: z.string().min(1),
    id: z.string().optional(),
    normalised: z.boolean().optional().describe('whether the entity has been normalised'),
    concepts: z.array(EntityConcept).optional(),
    negated: z.boolean().optional(),
    presence: Presence.optional(),
  })
  .refine((entity) => entity.end > entity.start, {
    message: 'end must be greater than start',
    path: ['end'],
  });
export type AnnotationEntity = z.infer<typeof AnnotationEntity>;

/** An entity as submissions carry it: `[start, end, extract, category]` (spec 1 §7). */
export const SubmittedEntity = z
  .object({
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    extract: z.string().min(1),
    category: z.string().min(1),
  })
  .refine((entity) => entity.end > entity.start, {
    message: 'end must be greater than start',
    path: ['end'],
  });
export type SubmittedEntity = z.infer<typeof SubmittedEntity>;

/** The entities of a submission. */
export const SubmittedEntities = z.array(SubmittedEntity);

/**
 * One rewording of the reword step (spec 1 §4): the entity's extract, the category it is reworded
 * as and the reworded sentence. A message.annotation carries them as `rewordings` after the
 * reword step; a reword job's quinn answer carries one.
 */
export const Rewording = z.object({
  entityExtract: z.string(),
  category: z.string(),
  text: z.string().trim().min(1, 'must not be empty'),
});
export type Rewording = z.infer<typeof Rewording>;
export const Rewordings = z.array(Rewording).min(1, 'must hold at least one rewording');

/** Purpose of a federated job (spec 1 §3 job.purpose; reword and normalise in the federated screen). */
export const JobPurpose = z.enum([
  'full',
  'annotate-only',
  'verify-answered',
  'reword',
  'normalise',
]);
export type JobPurpose = z.infer<typeof JobPurpose>;

/** Multiplicity of a slot: the spec shows `0..1` and `0..*`; a lower bound of 0 means optional. */
export const SlotMultiplicity = z.string().regex(/^\d+\.\.(\d+|\*)$/);
export type SlotMultiplicity = z.infer<typeof SlotMultiplicity>;

/** The slot a message answers (spec 1 §3 slotSpecification). */
export const SlotSpecification = z.object({
  code: z.string().min(1),
  short_description: z.string().optional(),
  data_type: z.string().optional().describe("'boolean' or another type"),
  multiplicity: SlotMultiplicity.optional(),
  enums: z.array(z.string()).optional(),
});
export type SlotSpecification = z.infer<typeof SlotSpecification>;

/** The value submitted when the patient is unsure / the slot is passed (spec 1 §4). */
export const SKIPPED_SLOT_VALUE = '__skipped__';

/** Slot block of a message.annotation submission: `{id, type, code, value}` (spec 1 §7). */
export const AnnotationSlot = z.object({
  id: z.string(),
  type: z.string().describe('the slot data type, e.g. boolean'),
  code: z.string().min(1),
  value: z
    .string()
    .nullable()
    .describe("'endorse'/'deny' for boolean slots, '__skipped__' when skipped, else null"),
});
export type AnnotationSlot = z.infer<typeof AnnotationSlot>;

/**
 * `message.annotation` (spec 1 §7): action is the purpose's action, the conversation goal or
 * 'execute'; userId is carried by the annotate call and optional on the socket.
 */
export const MessageAnnotationPayload = z.object({
  action: z.string().min(1).default('execute'),
  conversationId: z.string().min(1),
  messageId: z.string().min(1),
  userId: z.string().min(1).optional(),
  entities: z.array(SubmittedEntity),
  slot: AnnotationSlot,
});
export type MessageAnnotationPayload = z.infer<typeof MessageAnnotationPayload>;

/** `message.annotation.exception` (spec 1 §7): `{action:'exception', conversationId, messageId, slot {id, code}}`. */
export const AnnotationExceptionPayload = z.object({
  action: z.literal('exception'),
  conversationId: z.string().min(1),
  messageId: z.string().min(1),
  slot: z.object({ id: z.string(), code: z.string().min(1) }),
});
export type AnnotationExceptionPayload = z.infer<typeof AnnotationExceptionPayload>;

/** `message.rephrase.question` (spec 1 §7): `{conversationId, recipientId, message, replyType:'REPHRASE', replyTo}`. */
export const RephraseQuestionPayload = z.object({
  conversationId: z.string().min(1),
  recipientId: z.string().min(1),
  message: z.string().min(1),
  replyType: z.literal('REPHRASE'),
  replyTo: z.string().min(1),
});
export type RephraseQuestionPayload = z.infer<typeof RephraseQuestionPayload>;

/** `hpi.prioritised` (spec 1 §7): `{action:'set_priority', conversationId, priority}`; priority is the chosen choice id. */
export const PriorityPayload = z.object({
  action: z.literal('set_priority'),
  conversationId: z.string().min(1),
  priority: z.string().min(1),
});
export type PriorityPayload = z.infer<typeof PriorityPayload>;

/** Body of the `message.intents` operation (spec 1 §3 Intent submission, §7). */
export const IntentSubmission = z.object({
  message: z.object({
    conversationId: z.string().min(1),
    messageId: z.string().min(1),
    userId: z.string().min(1),
  }),
  entities: z.array(SubmittedEntity),
});
export type IntentSubmission = z.infer<typeof IntentSubmission>;

/** Nested map of category to sub-categories in an intent's context menu (spec 1 §3). */
export type ContextMenuTree = { [category: string]: ContextMenuTree | string[] | null };
/** Schema of {@link ContextMenuTree}: a leaf is null, an empty object or a list of sub-categories. */
export const ContextMenuTree: z.ZodType<ContextMenuTree> = z
  .lazy(() => z.record(z.string(), z.union([ContextMenuTree, z.array(z.string()), z.null()])))
  // Recursive: the OpenAPI documents give it a component of its own to refer to.
  .meta({ id: 'ContextMenuTree' });

/** Answer of `GET /internal/quinn/intents/{intent}/_context_menu` (spec 1 §3, §7). */
export const IntentContextMenu = z.object({
  menu: ContextMenuTree,
  derived: z.array(z.string()),
});
export type IntentContextMenu = z.infer<typeof IntentContextMenu>;
