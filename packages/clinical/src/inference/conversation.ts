import type { Acuity, KbItems } from '../kb/format.ts';
import { OBSERVATION_CLASSES } from '../kb/format.ts';
import type { Presence, Recogniser } from '../nlp/recognise.ts';
import { acuityRing, differentialAcuity } from './acuity.ts';
import type {
  AssociatedObservation,
  DifferentialModel,
  DifferentiatingObservation,
} from './differential.ts';

/** A patient's message of a conversation: what the differential reads. */
export interface PatientMessage {
  id: string;
  text: string;
}

/** What the conversation says about a concept: the latest mention that counts. */
export interface ConversationFinding {
  conceptId: string;
  canonicalName: string;
  class: string;
  presence: Presence;
  /** The message and words of that mention. */
  messageId: string;
  original: string;
}

/** A complication of a differential entry with what the conversation says about it. */
export interface ConversationComplication {
  id: string;
  name: string;
  question?: string | undefined;
  acuity: Acuity;
  /** 'endorse' or 'deny' when the conversation mentions the complication; else absent. */
  response?: Presence | undefined;
}

/** One entry of a conversation's differential (spec 3 §3 "Differential inference"). */
export interface ConversationInferenceEntry {
  conditionName: string;
  conditionId: string;
  probability: number;
  acuity?: Acuity | undefined;
  complications: ConversationComplication[];
  associatedObservations: AssociatedObservation[];
}

export interface ConversationDifferential {
  findings: ConversationFinding[];
  inference: ConversationInferenceEntry[];
  differentiatingObservations: DifferentiatingObservation[];
  /** The differential's acuity (spec 3 §4), with its answered complications. */
  acuity?: string | undefined;
  acuityRing: number;
}

const observationClasses = new Set<string>(OBSERVATION_CLASSES);

/**
 * The findings of a conversation, in order of first mention: every concept the patient's messages
 * name as their own and current (a relative's finding, a past one or a what-if does not count). A
 * later mention of the same concept replaces an earlier one: 'no fever' after 'I had a fever'
 * means no fever now.
 */
export function conversationFindings(
  messages: readonly PatientMessage[],
  recogniser: Recogniser,
): ConversationFinding[] {
  const byConcept = new Map<string, ConversationFinding>();
  for (const message of messages) {
    for (const entity of recogniser.recognise(message.text).entities) {
      const { family, historical, hypothetical } = entity.context;
      if (family || historical || hypothetical) {
        continue;
      }
      byConcept.set(entity.conceptId, {
        conceptId: entity.conceptId,
        canonicalName: entity.canonicalName,
        class: entity.class,
        presence: entity.presence,
        messageId: message.id,
        original: entity.original,
      });
    }
  }
  return [...byConcept.values()];
}

/**
 * What a complication is about: its concept and the findings its question asks after ('Are you
 * feeling confused, very drowsy, or cold and clammy?' asks after confusion, drowsiness and cold
 * clammy skin), leaving out the condition's own usual findings (its High and Medium edges): 'Are
 * you too breathless to speak?' is not answered yes by the breathlessness of a pneumonia.
 */
function complicationConcepts(
  complication: KbItems['complications'][number],
  items: KbItems,
  recogniser: Recogniser,
): string[] {
  const usual = new Set(
    items.relationships
      .filter(
        (r) =>
          r.from === complication.condition &&
          r.correlation === 'Positive' &&
          (r.weight === 'High' || r.weight === 'Medium'),
      )
      .map((r) => r.to),
  );
  const asked = complication.question
    ? recogniser
        .recognise(complication.question)
        .entities.map((e) => e.conceptId)
        .filter((id) => !usual.has(id))
    : [];
  return [...new Set([...(complication.concept ? [complication.concept] : []), ...asked])];
}

/**
 * The differential of a conversation: its observations (endorsed present, denied absent, unsure
 * left out) ranked by the model; each entry with its complications, answered from the
 * conversation: 'endorse' when the patient has the complication or a finding its question asks
 * after, 'deny' when they deny those and have none; the acuity from the top entry (spec 3 §4).
 */
export function conversationDifferential(
  messages: readonly PatientMessage[],
  recogniser: Recogniser,
  model: DifferentialModel,
  items: KbItems,
  options: { maxEntries?: number } = {},
): ConversationDifferential {
  const findings = conversationFindings(messages, recogniser);
  const observations = findings.filter((f) => observationClasses.has(f.class));
  const prediction =
    observations.length > 0
      ? model.diagnose(
          observations.map((f) => ({ observation: f.conceptId, presence: f.presence })),
        )
      : { inference: [], differentiatingObservations: [], unknownObservations: [] };
  const presenceOf = new Map(findings.map((f) => [f.conceptId, f.presence]));
  const inference = prediction.inference.slice(0, options.maxEntries ?? 20).map((entry) => ({
    conditionName: entry.condition,
    conditionId: entry.conditionId,
    probability: entry.probability,
    acuity: entry.acuity,
    associatedObservations: entry.associatedObservations,
    complications: items.complications
      .filter((c) => c.condition === entry.conditionId)
      .map((c) => {
        const answers = complicationConcepts(c, items, recogniser).map((id) => presenceOf.get(id));
        const response: Presence | undefined = answers.includes('endorse')
          ? 'endorse'
          : answers.includes('deny')
            ? 'deny'
            : undefined;
        return {
          id: c.id,
          name: c.name,
          question: c.question,
          acuity: c.acuity,
          ...(response === undefined ? {} : { response }),
        };
      }),
  }));
  const acuity = differentialAcuity(inference);
  return {
    findings,
    inference,
    differentiatingObservations: prediction.differentiatingObservations,
    acuity,
    acuityRing: acuityRing(acuity),
  };
}
