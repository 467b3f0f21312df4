import {
  EntityConcept,
  type IntentContextMenu,
  MessageAnnotationPayload,
  PriorityPayload,
  RephraseQuestionPayload,
  Rewordings,
  SubmittedEntities,
} from '@loopdesk/contracts/workbench-payloads.ts';
import { GOAL_INTENT_CODES } from '@loopdesk/contracts/category-menus.ts';
import { annotationScreenOf, derivedCategories, intentCategoriesOf } from './category-menu.ts';
import { readMessageJob, readPriorityJob, type JobData } from './job-data.ts';
import {
  customExceptionLabel,
  ESCALATION_ACTION,
  exceptionAction,
  FORGET_ACTION,
  SUBMIT_ACTIONS,
} from './purposes.ts';
import { rewordTargets } from './reword.ts';
import { intentEntities } from './target.ts';
import {
  ANNOTATE_INTENT_MESSAGE,
  entitiesMatchText,
  ENTITIES_DO_NOT_MATCH_MESSAGE,
  validateAnnotationPayload,
} from './validation.ts';

/**
 * The server's check of a socket submission against the job it answers, with the same rules the
 * panels apply (so a submission the panel would refuse is refused by the server too, and a
 * hand-made one cannot slip past them). Messages are ours where the spec has none.
 */

/** What the server knows of the held job. */
export interface HeldJob {
  readonly type: string;
  readonly data: JobData;
  /** The intent's context menu the portal was given (its derived categories count as target). */
  readonly contextMenu?: IntentContextMenu | null;
}

export const slotMismatchMessage = (sent: string, expected: string) =>
  `The submission answers the slot '${sent}', but the job asks about '${expected}'.`;
export const rewordingsMissingMessage = (extracts: readonly string[]) =>
  `Reword ${extracts.map((x) => `'${x}'`).join(', ')} before submitting (rewordings [{entityExtract, category, text}]).`;
export const REPHRASE_OPTION_MESSAGE =
  "The rephrased question must be one of the job's rephrase options.";
export const PRIORITY_CHOICE_MESSAGE = "The priority must be the id of one of the job's choices.";
export const REWORD_TEXT_MESSAGE =
  'A reword answer needs rewordings [{entityExtract, category, text}] with a text.';
export const CONCEPT_MESSAGE =
  'A normalisation answer needs the concept {id, code {code, system}, text, value}.';
export const answerActionMessage = (expected: string) =>
  `quinn.action.answer_quinn on this job must have the action '${expected}'.`;
export const RPA_CLEAR_MESSAGE = "rpa.robot.clear needs the action 'clear'.";
export const purposeExceptionMessage = (expected: string, label: string | undefined) =>
  label === undefined
    ? `This job has no custom exception event: its exception has the action '${expected}'.`
    : `This job's exception is its custom event '${label}': its action is '${expected}'.`;
export const EXCEPTION_ACTION_MESSAGE =
  "message.annotation.exception needs the action 'exception'.";

/** The first problem of a zod parse, said the way the panels say things. */
function problem(
  what: string,
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
): string {
  const issues = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || 'data'} ${issue.message}`)
    .join('; ');
  return `The ${what} is not valid: ${issues}.`;
}

function checkMessageAnnotation(job: HeldJob, data: Record<string, unknown>): string | null {
  const view = readMessageJob(job.data);
  const exceptionJob = job.type === 'exception.job';
  if (data.action === ESCALATION_ACTION || data.action === FORGET_ACTION) {
    // 'suggest_forget' when the job sets a custom exception event, else 'suggest_escalation'.
    const label = customExceptionLabel(job.type, view);
    const expected = exceptionAction(label !== undefined);
    if (data.action !== expected) {
      return purposeExceptionMessage(expected, label);
    }
    const parsed = MessageAnnotationPayload.safeParse(data);
    return parsed.success ? null : problem('exception', parsed.error);
  }
  const spec = view.slotSpecification;
  if (!spec) {
    // Nothing to judge against: the panel shows the invalid-state text and offers only Exception.
    return null;
  }
  const parsed = MessageAnnotationPayload.safeParse(data);
  if (!parsed.success) {
    return problem('annotation', parsed.error);
  }
  const payload = parsed.data;
  if (view.slot && payload.slot.code !== view.slot.code) {
    return slotMismatchMessage(payload.slot.code, view.slot.code);
  }
  if (view.purpose === 'verify-answered') {
    // No menu and no annotations to judge: the submit says the question was answered.
    return entitiesMatchText(view.text, payload.entities) ? null : ENTITIES_DO_NOT_MATCH_MESSAGE;
  }
  const refusal = validateAnnotationPayload(payload, {
    screen: annotationScreenOf(view, exceptionJob),
    slotSpecification: spec,
    text: view.text,
    intentCategories: intentCategoriesOf(),
    derived: derivedCategories(job.contextMenu),
  });
  if (refusal !== null) {
    return refusal;
  }
  const targets = rewordTargets(payload.entities, {
    slotCode: spec.code,
    goalIntent: view.goal !== undefined && GOAL_INTENT_CODES.includes(view.goal),
    ...(view.originalJob === undefined ? {} : { originalJob: view.originalJob }),
  });
  if (targets.length > 0) {
    const rewordings = Rewordings.safeParse(data.rewordings);
    const missing = targets.filter(
      (target) =>
        !rewordings.success ||
        !rewordings.data.some((r) => r.entityExtract === target.entity.extract),
    );
    if (missing.length > 0) {
      return rewordingsMissingMessage(missing.map((t) => t.entity.extract));
    }
  }
  return null;
}

function checkIntentAnnotation(job: HeldJob, data: Record<string, unknown>): string | null {
  const view = readMessageJob(job.data);
  const entities = SubmittedEntities.safeParse(data.entities);
  if (!entities.success) {
    return problem('intent annotation', entities.error);
  }
  if (!entitiesMatchText(view.text, entities.data)) {
    return ENTITIES_DO_NOT_MATCH_MESSAGE;
  }
  return intentEntities(entities.data, intentCategoriesOf()).length === 0
    ? ANNOTATE_INTENT_MESSAGE
    : null;
}

function checkQuinnAnswer(job: HeldJob, data: Record<string, unknown>): string | null {
  const { purpose } = readMessageJob(job.data);
  if (purpose === 'reword') {
    if (data.action !== SUBMIT_ACTIONS.reword) {
      return answerActionMessage(SUBMIT_ACTIONS.reword);
    }
    return Rewordings.safeParse(data.rewordings).success ? null : REWORD_TEXT_MESSAGE;
  }
  if (purpose === 'normalise') {
    if (data.action !== SUBMIT_ACTIONS.normalise) {
      return answerActionMessage(SUBMIT_ACTIONS.normalise);
    }
    return EntityConcept.safeParse(data.concept).success ? null : CONCEPT_MESSAGE;
  }
  return null;
}

/**
 * Checks a submission against the job it answers; null when it may complete the job. Types the
 * workbench has no rule for (dh.portal.hitl.event, exception-desk events) are not judged here.
 */
export function checkSubmission(
  job: HeldJob,
  type: string,
  data: Record<string, unknown>,
): string | null {
  switch (type) {
    case 'message.annotation':
      if (job.type === 'message.annotation.job' || job.type === 'exception.job') {
        return checkMessageAnnotation(job, data);
      }
      return job.type === 'intent.classification.job' ? checkIntentAnnotation(job, data) : null;
    case 'message.annotation.exception':
    case 'hpi.prioritised.exception':
      // A job lacking ids still gets its exception, with the ids it has.
      return data.action === 'exception' ? null : EXCEPTION_ACTION_MESSAGE;
    case 'message.rephrase.question': {
      const parsed = RephraseQuestionPayload.safeParse(data);
      if (!parsed.success) {
        return problem('rephrase', parsed.error);
      }
      const options = readMessageJob(job.data).rephraseOptions;
      return options.length === 0 || options.includes(parsed.data.message)
        ? null
        : REPHRASE_OPTION_MESSAGE;
    }
    case 'hpi.prioritised': {
      const parsed = PriorityPayload.safeParse(data);
      if (!parsed.success) {
        return problem('priority', parsed.error);
      }
      const { choices } = readPriorityJob(job.data);
      return choices.some((choice) => choice.id === parsed.data.priority)
        ? null
        : PRIORITY_CHOICE_MESSAGE;
    }
    case 'quinn.action.answer_quinn':
      return checkQuinnAnswer(job, data);
    case 'rpa.robot.clear':
      return data.action === 'clear' ? null : RPA_CLEAR_MESSAGE;
    default:
      return null;
  }
}
