import type { SubmissionType } from '@loopdesk/contracts/realtime.ts';
import {
  buildExceptionPayload,
  buildPurposeExceptionPayload,
} from '@loopdesk/workbench/payloads.ts';
import type { TechnicianJob } from '../socket/use-technician-session.ts';
import type { MessageJob } from '@loopdesk/workbench/job-data.ts';

/** What raising an exception on a job sends. */
export interface ExceptionSubmission {
  readonly type: SubmissionType;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The exception for a job (spec 1 §4, §7; workbench README decision 15): a job with a purpose
 * answers with a message.annotation whose action is 'suggest_escalation'; otherwise
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
          customEvent: false,
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

/** Sends the exception of a job on the technician's socket (see {@link exceptionSubmission}). */
export function sendException(
  job: TechnicianJob,
  view: MessageJob,
  submit: (type: SubmissionType, data: Readonly<Record<string, unknown>>) => unknown,
): void {
  const raised = exceptionSubmission(job, view);
  submit(raised.type, raised.data);
}
