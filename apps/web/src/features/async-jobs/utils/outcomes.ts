import { AsyncTask } from '@loopdesk/contracts/async-jobs.ts';
import { stepLabel, taskSubject, type TaskPlace } from './task-screens.ts';

const about = (task: Pick<AsyncTask, 'data' | 'condition'>) => {
  const subject = taskSubject(task);
  return subject ? ` for “${subject}”` : '';
};

/**
 * The toast after Publish (issue 20 point 19): what was published and where the task went, the
 * next step of its pipeline or, after the last step, the knowledge base.
 */
export function publishedMessage(
  title: string,
  task: Pick<AsyncTask, 'data' | 'condition'>,
  place: TaskPlace | undefined,
  result: unknown,
): string {
  const answer = AsyncTask.safeParse(result);
  const head = `Published: ${title}${about(task)}.`;
  if (!answer.success) {
    return head;
  }
  if (answer.data.completedOn !== null) {
    return `${head} The task is complete${place ? ` in ${place.pipeline}` : ''}.`;
  }
  return `${head} It moves on to ${stepLabel(answer.data.lock.step)}.`;
}

/** The toast after Discard (issue 20 point 19). */
export function discardedMessage(title: string, task: Pick<AsyncTask, 'data' | 'condition'>) {
  return `Discarded: ${title}${about(task)}, with your note. It is out of the queue.`;
}

/** The toast after Add job (issue 20 point 19); it starts with the spec's 'Success'. */
export function addedMessage(condition: string, pipeline: string | undefined): string {
  return `Success: “${condition.trim()}” was added to ${pipeline ?? 'the pipeline'}.`;
}
