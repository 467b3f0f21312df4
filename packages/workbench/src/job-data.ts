import {
  AnnotationEntity,
  JobPurpose,
  SlotSpecification,
} from '@loopdesk/contracts/workbench-payloads.ts';
import type { JobSlot, MessageRef } from './payloads.ts';
import { splitRephraseOptions } from './menu.ts';

/** A job's data as the assistant sent it (spec 1 §3 "Job event data"), unchecked. */
export type JobData = Readonly<Record<string, unknown>>;

/**
 * What a message job (spec 1 §3 "Job event data") holds for the annotation panels and the
 * server's check of their submissions, read leniently: the assistant sends the data as is, so a
 * field that is missing or malformed reads as absent.
 */
export interface MessageJob {
  /** The patient message to annotate: `lastTurn.content`. */
  readonly text: string;
  /** The assistant's last question, shown in the header: `quinnLastTurn.content`. */
  readonly lastQuestion: string | null;
  /** Conversation and message ids, or null when the job lacks one of them. */
  readonly message: MessageRef | null;
  /** The conversation id alone (priority and RPA jobs name no message). */
  readonly conversationId: string | undefined;
  readonly userId: string | undefined;
  readonly slotSpecification: SlotSpecification | null;
  /** The job's slot `{id or _id, code}`; defaults to the slot specification's code. */
  readonly slot: JobSlot | null;
  /** Codes of the related slots, in the job's order. */
  readonly relatedSlots: readonly string[];
  readonly relatedSlotSpecifications: readonly SlotSpecification[];
  /** Annotations the message already carries (`lastTurn.metadata.entities`). */
  readonly entities: readonly AnnotationEntity[];
  readonly purpose: JobPurpose | undefined;
  /**
   * The job's custom exception label (`job.exceptionLabel`, spec 1 §4 "custom exception label"):
   * when set, the Exception button bears it, skips the rephrase screen and raises the custom
   * exception event ('suggest_forget' for a job with a purpose).
   */
  readonly exceptionLabel: string | undefined;
  /** The conversation goal (job metadata), used as the action when there is no purpose. */
  readonly goal: string | undefined;
  /**
   * Rephrase options: `slotUtteranceSpecification.options`, else the '~'-separated
   * `rephraseOptions` of the data or `xdhreitopts` of the job metadata.
   */
  readonly rephraseOptions: readonly string[];
  /** The job metadata's original job type (`originalJob` / `xdhoriginaljob`), for the reword rule. */
  readonly originalJob: string | undefined;
  /** The entity a reword or normalise job is about (`data.entity`), when it has an extract. */
  readonly entity: JobEntity | null;
  /**
   * The intent whose context menu applies: the job metadata's top intent (`topIntent` /
   * `xdhtopint`), else the conversation goal.
   */
  readonly intent: string | undefined;
  /** The job's tenant (`tenant`, added by the server, or the metadata's `xdhtenantid`). */
  readonly tenant: string | undefined;
}

/** The entity of a reword or normalise job (spec 1 §3 job event data `entity`). */
export interface JobEntity {
  readonly extract: string;
  readonly category: string | undefined;
}

type Json = Readonly<Record<string, unknown>>;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function readSlot(value: unknown, fallbackCode: string | undefined): JobSlot | null {
  const slot = record(value);
  const code = text(slot?.code) ?? fallbackCode;
  if (code === undefined) {
    return null;
  }
  const id = text(slot?.id);
  const underscoreId = text(slot?._id);
  return {
    code,
    ...(id === undefined ? {} : { id }),
    ...(underscoreId === undefined ? {} : { _id: underscoreId }),
  };
}

/** A related slot is a code or an object with a code. */
function relatedCode(value: unknown): string | undefined {
  return text(value) ?? text(record(value)?.code);
}

/** Options arrive as one '~'-separated string (spec 1 §3), or as [id, content] pairs. */
function readRephraseOptions(value: unknown, ...fallbacks: unknown[]): string[] {
  const options = record(value)?.options;
  if (options === undefined) {
    const joined = fallbacks.map(text).find((f) => f !== undefined);
    return joined === undefined ? [] : splitRephraseOptions(joined);
  }
  if (typeof options === 'string') {
    return splitRephraseOptions(options);
  }
  return list(options).flatMap((option) => {
    const content = Array.isArray(option) ? text(option[1]) : text(record(option)?.content);
    return content === undefined ? [] : [content];
  });
}

function readEntity(value: unknown): JobEntity | null {
  const entity = record(value);
  const extract = text(entity?.extract);
  return extract === undefined ? null : { extract, category: text(entity?.category) };
}

/** Reads the fields the message panels use from a job event's data. */
export function readMessageJob(data: JobData): MessageJob {
  const lastTurn = record(data.lastTurn);
  const turnMetadata = record(lastTurn?.metadata);
  const jobMetadata = record(data.metadata);
  const spec = SlotSpecification.safeParse(data.slotSpecification);
  const slotSpecification = spec.success ? spec.data : null;

  const conversationId =
    text(turnMetadata?.conversationId) ??
    text(jobMetadata?.conversationId) ??
    text(jobMetadata?.xdhconvid);
  const messageId =
    text(lastTurn?.messageId) ??
    text(lastTurn?._id) ??
    text(jobMetadata?.messageId) ??
    text(jobMetadata?.xdhmessageid);
  const jobBlock = record(data.job);
  const purpose = JobPurpose.safeParse(jobBlock?.purpose);
  const goal = text(jobMetadata?.conversationGoal) ?? text(jobMetadata?.xdhconvgoal);

  return {
    text: text(lastTurn?.content) ?? '',
    lastQuestion: text(record(data.quinnLastTurn)?.content) ?? null,
    message:
      conversationId !== undefined && messageId !== undefined
        ? { conversationId, messageId }
        : null,
    conversationId,
    userId: text(lastTurn?.userId) ?? text(jobMetadata?.userId) ?? text(jobMetadata?.xdhuserid),
    slotSpecification,
    slot: readSlot(data.slot, slotSpecification?.code),
    relatedSlots: [...new Set(list(data.relatedSlots).flatMap((s) => relatedCode(s) ?? []))],
    relatedSlotSpecifications: list(data.relatedSlotSpecifications).flatMap((s) => {
      const parsed = SlotSpecification.safeParse(s);
      return parsed.success ? [parsed.data] : [];
    }),
    entities: list(turnMetadata?.entities).flatMap((e) => {
      const parsed = AnnotationEntity.safeParse(e);
      return parsed.success ? [parsed.data] : [];
    }),
    purpose: purpose.success ? purpose.data : undefined,
    exceptionLabel: text(
      typeof jobBlock?.exceptionLabel === 'string' ? jobBlock.exceptionLabel.trim() : undefined,
    ),
    goal,
    rephraseOptions: readRephraseOptions(
      data.slotUtteranceSpecification,
      data.rephraseOptions,
      jobMetadata?.xdhreitopts,
    ),
    originalJob: text(jobMetadata?.originalJob) ?? text(jobMetadata?.xdhoriginaljob),
    entity: readEntity(data.entity),
    intent: text(jobMetadata?.topIntent) ?? text(jobMetadata?.xdhtopint) ?? goal,
    tenant: text(data.tenant) ?? text(jobMetadata?.tenantId) ?? text(jobMetadata?.xdhtenantid),
  };
}

/** A choice of a priority job (spec 1 §3: choices [id, extract]). */
export interface PriorityChoice {
  readonly id: string;
  readonly extract: string;
}

/** The priority text and choices of a priority job; choices are `{id, extract}` or `[id, extract]`. */
export function readPriorityJob(data: JobData): {
  question: string | undefined;
  choices: PriorityChoice[];
} {
  const choices = Array.isArray(data.choices) ? (data.choices as unknown[]) : [];
  return {
    question: text(data.priority),
    choices: choices.flatMap((choice) => {
      const id = Array.isArray(choice) ? text(choice[0]) : text(record(choice)?.id);
      const extract = Array.isArray(choice) ? text(choice[1]) : text(record(choice)?.extract);
      return id === undefined || extract === undefined ? [] : [{ id, extract }];
    }),
  };
}

/** The portal address and step description of a manual RPA step job. */
export function readRpaJob(data: JobData): {
  portal: string | undefined;
  step: string | undefined;
} {
  const portal = text(data.portal);
  // Only web addresses open in a new tab (never javascript: or data: URLs).
  const safe = portal !== undefined && /^https?:\/\//i.test(portal) ? portal : undefined;
  return { portal: safe, step: text(data.step) };
}
