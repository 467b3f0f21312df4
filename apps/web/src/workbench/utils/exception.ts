import type { SubmissionType } from '@loopdesk/contracts/realtime.ts';
import {
  buildExceptionPayload,
  buildPurposeExceptionPayload,
} from '@loopdesk/workbench/payloads.ts';
import type { TechnicianJob } from '../../lib/socket/use-technician-session.ts';
import type { MessageJob } from '@loopdesk/workbench/job-data.ts';
import { customExceptionLabel, DEFAULT_EXCEPTION_LABEL } from '@loopdesk/workbench/purposes.ts';

/** What raising an exception on a job sends. */
export interface ExceptionSubmission {
  readonly type: SubmissionType;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The exception for a job (spec 1 §4, §7; workbench README decision 15): a job with a purpose
 * answers with a message.annotation whose action is 'suggest_escalation', or 'suggest_forget' when
 * the job sets a custom exception label (its custom exception event); otherwise
 * message.annotation.exception `{action:'exception', conversationId, messageId, slot {id, code}}`
 * (hpi.prioritised.exception for a priority job). A job lacking its ids still gets its exception,
 * with the ids it has, so that a technician is never stuck with a job nobody can handle.
 */
export function exceptionSubmission(job: TechnicianJob, view: MessageJob): ExceptionSubmission {
  const type: SubmissionType =
    job.type === 'intent.hpi.priority.job'
      ? 'hpi.prioritised.exception'
      : 'message.annotation.exception';
  const { message, slot } = view;
  if (message && slot) {
    if (job.type === 'message.annotation.job' && view.purpose !== undefined) {
      return {
        type: 'message.annotation',
        data: buildPurposeExceptionPayload({
          message,
          ...(view.userId === undefined ? {} : { userId: view.userId }),
          slot: { ...slot, type: view.slotSpecification?.data_type ?? '' },
          customEvent: customEventLabel(job, view) !== undefined,
        }),
      };
    }
    return { type, data: buildExceptionPayload({ message, slot }) };
  }
  return {
    type,
    data: {
      action: 'exception',
      ...(message ??
        (view.conversationId === undefined ? {} : { conversationId: view.conversationId })),
      ...(slot ? { slot: { id: slot.id ?? slot._id ?? '', code: slot.code } } : {}),
    },
  };
}

/** What a custom exception event does (spec 1 §4: it sends 'suggest_forget'). */
export const CUSTOM_EXCEPTION_HINT =
  "The job's custom exception event asks the assistant to forget this message; your annotations are not sent.";

/**
 * What an Exception button says it does (its tooltip and description): the plain exception's
 * `message` (where the job goes), or the custom exception event's when the job sets a custom label.
 */
export function exceptionHint(label: string | undefined, message: string): string {
  return label === undefined || label === DEFAULT_EXCEPTION_LABEL ? message : CUSTOM_EXCEPTION_HINT;
}

/**
 * The custom exception label of a job whose exception can carry the custom event: a purpose job
 * with its ids and slot (without them the exception falls back to `{action:'exception'}`).
 */
export function customEventLabel(job: TechnicianJob, view: MessageJob): string | undefined {
  return view.message && view.slot ? customExceptionLabel(job.type, view) : undefined;
}

/** What the Exception button of a job says: its custom exception label, else 'Exception'. */
export function exceptionLabelOf(job: TechnicianJob, view: MessageJob): string {
  return customEventLabel(job, view) ?? DEFAULT_EXCEPTION_LABEL;
}

/** Sends the exception of a job on the technician's socket (see {@link exceptionSubmission}). */
export function sendException(
  job: TechnicianJob,
  view: MessageJob,
  submit: (type: SubmissionType, data: Readonly<Record<string, unknown>>) => unknown,
): void {
  const raised = exceptionSubmission(job, view);
  submit(raised.type, raised.data);
}
