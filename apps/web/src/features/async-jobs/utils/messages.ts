/** Exact strings of spec 3 §2, §5 and §8. */
export const DASHBOARD_TITLE = 'Asynchronous Jobs - Dashboard';
export const TASK_TITLE = 'Asynchronous Jobs';
export const TAKE_NEXT_JOB = 'Take Next Job';
export const STILL_PROCESSING = 'Still processing last request.';
export const ARE_YOU_SURE = 'Are you sure?';
export { PHRASE_TOO_SHORT } from '@loopdesk/contracts/async-jobs.ts';
export const ENTER_COMPLICATION = 'Please enter complication.';
export const ADD_QUESTION = 'Please add a question.';
export const ADD_MEDICATION = 'Please add a medication.';
export const ADD_SYMPTOM = 'Please add a symptom.';
export const ADD_TASK_SUCCESS = 'Success';
/** Spec 3 §4: a failed task load returns to the dashboard after 5 seconds. */
export const FAILED_LOAD_RETURN_MS = 5_000;
export const DASHBOARD_PATH = '/jobs/async';

/** Annotation Job (spec 3 §2, §5). */
export const ANNOTATE_PROMPT = 'Annotate the following information.';
export const ASKED = 'Asked: ';
export const DELETE_ANNOTATION = 'Are you sure you want to delete this annotation?';
/** Observation job (spec 3 §5). */
export const COMPLETE_OBSERVATION = 'Please complete both observation and observation class.';
/** Differential (spec 3 §2): the guidance, not enforced (§5). */
export const DIFFERENTIAL_PROMPT =
  'List five or more diagnoses, ordered from the most to the least likely.';

/** Load failures (spec 3 §8). */
export const classesLoadError = (classType: string) => `Error loading ${classType} classes`;
export const OBSERVATIONS_LOAD_ERROR = 'Error loading observations';
export const COMPLICATIONS_LOAD_ERROR = 'Error loading complications';
export const NORMALISED_CONCEPTS_LOAD_ERROR = 'Error loading normalised concepts';
