import type { EntityConcept, Rewording } from '@loopdesk/contracts/workbench-payloads.ts';
import type { TypeaheadResult } from '@loopdesk/contracts/intelligence.ts';
import type { RewordTarget } from '@loopdesk/workbench/reword.ts';
import { SUBMIT_ACTIONS } from '@loopdesk/workbench/purposes.ts';
import type { JobEntity, MessageJob } from '@loopdesk/workbench/job-data.ts';

/**
 * Payloads the workbench has no builder for (spec 1 §7 names the events, not their bodies): the
 * reword step's rewordings, the quinn answers of the reword and normalise jobs, and the RPA clear.
 * The decisions are in apps/web/README.md "Federated Jobs".
 */

/** Rewordings from the reword step's targets and the texts typed for them, in target order. */
export function rewordingsOf(
  targets: readonly RewordTarget[],
  texts: readonly string[],
): Rewording[] {
  return targets.map((target, index) => ({
    entityExtract: target.entity.extract,
    category: target.category,
    text: (texts[index] ?? '').trim(),
  }));
}

/** The ids a quinn answer names; absent ids are left out. */
function answerIds(view: MessageJob): Record<string, string> {
  return {
    ...(view.conversationId === undefined ? {} : { conversationId: view.conversationId }),
    ...(view.message ? { messageId: view.message.messageId } : {}),
    ...(view.userId === undefined ? {} : { userId: view.userId }),
  };
}

function entityOf(entity: JobEntity): Record<string, string> {
  return {
    extract: entity.extract,
    ...(entity.category === undefined ? {} : { category: entity.category }),
  };
}

/**
 * `quinn.action.answer_quinn` for a reword job: `{action:'suggest_entity_reword', conversationId,
 * messageId, userId, entity {extract, category}, rewordings [{entityExtract, category, text}]}`.
 */
export function rewordAnswer(view: MessageJob, entity: JobEntity, text: string) {
  return {
    action: SUBMIT_ACTIONS.reword,
    ...answerIds(view),
    entity: entityOf(entity),
    rewordings: [
      { entityExtract: entity.extract, category: entity.category ?? '', text: text.trim() },
    ],
  };
}

/**
 * The system of a concept chosen in the normalisation panel (spec 1 §9: "a company
 * clinical-knowledge identifier URL"); the code is the knowledge base's concept id.
 */
export const CONCEPT_SYSTEM = 'https://loopdesk.example/fhir/CodeSystem/clinical-knowledge';

/** The concept `{id, code {code, system}, text, value}` of a typeahead result; `id` is generated. */
export function conceptOf(result: TypeaheadResult, id: string): EntityConcept {
  return {
    id,
    code: { code: result.conceptId, system: CONCEPT_SYSTEM },
    text: result.canonicalName,
    value: result.name,
  };
}

/**
 * `quinn.action.answer_quinn` for a normalise job: `{action:'suggest_entity_normalisation',
 * conversationId, messageId, userId, entity {extract, category}, concept}`.
 */
export function normalisationAnswer(view: MessageJob, entity: JobEntity, concept: EntityConcept) {
  return {
    action: SUBMIT_ACTIONS.normalise,
    ...answerIds(view),
    entity: entityOf(entity),
    concept,
  };
}

/** `rpa.robot.clear`: `{action:'clear', conversationId}` (conversationId when the job has one). */
export function rpaClearPayload(view: MessageJob) {
  return {
    action: 'clear',
    ...(view.conversationId === undefined ? {} : { conversationId: view.conversationId }),
  };
}
