import type { FastifyInstance } from 'fastify';
import type { AsyncTask } from '@loopdesk/contracts/async-jobs.ts';

export const PIPELINES_PATH = '/internal/async-jobs/pipelines';

/** The async-jobs calls a test makes, as a user with `token` (tests only). */
export function asyncJobsClient(app: FastifyInstance) {
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const taskUrl = (task: AsyncTask) =>
    `${PIPELINES_PATH}/${task.lock.pipeline}/steps/${task.lock.step}/tasks/${task.id}`;
  const client = {
    as,
    pop: (token: string, pipeline: number | string, step: string) =>
      app.inject({
        method: 'GET',
        url: `${PIPELINES_PATH}/${pipeline}/steps/${step}/_pop`,
        headers: as(token),
      }),
    submit: (token: string, task: AsyncTask, data: unknown) =>
      app.inject({
        method: 'POST',
        url: taskUrl(task),
        headers: as(token),
        payload: { id: task.id, data },
      }),
    discard: (token: string, task: AsyncTask, reason?: string) =>
      app.inject({
        method: 'DELETE',
        url: `${taskUrl(task)}${reason === undefined ? '' : `?reason=${encodeURIComponent(reason)}`}`,
        headers: as(token),
      }),
    /** Takes the next task of a step, failing the test when there is none. */
    async take(token: string, pipeline: number | string, step: string): Promise<AsyncTask> {
      const response = await client.pop(token, pipeline, step);
      if (response.statusCode !== 200) {
        throw new Error(`no task to take in ${pipeline}/${step}: ${response.body}`);
      }
      return response.json<AsyncTask>();
    },
    /** Submits and returns the task as it is after, failing the test on a refusal. */
    async complete(token: string, task: AsyncTask, data: unknown): Promise<AsyncTask> {
      const response = await client.submit(token, task, data);
      if (response.statusCode !== 200) {
        throw new Error(`submit of ${task.lock.step} refused: ${response.body}`);
      }
      return response.json<AsyncTask>();
    },
  };
  return client;
}
