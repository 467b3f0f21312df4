import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AsyncTask } from '@loopdesk/contracts/async-jobs.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { findPipeline } from './pipelines.ts';
import { createAsyncJobsService } from './service.ts';
import { asyncJobsClient } from './test-client.ts';

const BASE = '/internal/async-jobs/pipelines';

describe('drafts, My tasks and release (issue 20 point 17)', () => {
  let t: TestApp;
  let ann: { token: string; userId: string };
  let bob: { token: string; userId: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { DEMO: '0' } });
    ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    bob = await tokenForRoles(t, 'bob@example.test', ['annotator']);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.database.db.deleteFrom('kb_revisions').execute();
    await t.database.db.deleteFrom('async_tasks').execute();
    const pipeline = findPipeline('6');
    if (!pipeline) {
      throw new Error('no pipeline 6');
    }
    await createAsyncJobsService(t.database.db, { leaseMs: 600_000 }).insert({
      pipeline,
      data: { observation: 'fever' },
    });
  });

  const client = () => asyncJobsClient(t.app);
  const url = (task: AsyncTask) =>
    `${BASE}/${task.lock.pipeline}/steps/${task.lock.step}/tasks/${task.id}`;
  const saveDraft = (token: string, task: AsyncTask, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'PUT',
      url: `${url(task)}/draft`,
      headers: client().as(token),
      payload,
    });
  const mine = async (token: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/internal/async-jobs/tasks/mine',
        headers: client().as(token),
      })
    ).json<{ items: AsyncTask[] }>().items;
  const audits = (action: string, taskId: string) =>
    t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', action)
      .where('resource_id', '=', taskId)
      .execute();

  it('keeps the holder’s draft on the task, lists it in My tasks, and clears it on release', async () => {
    const task = await client().take(ann.token, 6, 'add_questions');
    expect(await mine(ann.token)).toEqual([expect.objectContaining({ id: task.id, draft: null })]);
    expect(await mine(bob.token)).toEqual([]);

    const saved = await saveDraft(ann.token, task, { draft: { added: [{ text: 'Since when?' }] } });
    expect(saved.statusCode).toBe(200);
    const read = await t.app.inject({
      method: 'GET',
      url: url(task),
      headers: client().as(ann.token),
    });
    expect(read.json<AsyncTask>().draft).toEqual({ added: [{ text: 'Since when?' }] });
    expect(await audits('async-jobs.task.draft', task.id)).toHaveLength(1);

    const released = await t.app.inject({
      method: 'POST',
      url: `${url(task)}/_release`,
      headers: client().as(ann.token),
    });
    expect(released.statusCode).toBe(200);
    expect(released.json<AsyncTask>()).toMatchObject({ lease: null, draft: null });
    expect(released.json<AsyncTask>().changeLog.at(-1)?.action).toBe('RELEASED');
    expect(await mine(ann.token)).toEqual([]);
    expect(await audits('async-jobs.task.release', task.id)).toHaveLength(1);
    // Back in its step: the next taker gets it, without the draft.
    const again = await client().take(bob.token, 6, 'add_questions');
    expect(again).toMatchObject({ id: task.id, draft: null });
  });

  it('refuses a draft or a release from anyone but the holder, and a draft that is no object; nothing changes', async () => {
    const task = await client().take(ann.token, 6, 'add_questions');
    const byBob = await saveDraft(bob.token, task, { draft: { added: [] } });
    expect(byBob.statusCode).toBe(409);
    const notAnObject = await saveDraft(ann.token, task, { draft: ['x'] });
    expect(notAnObject.statusCode).toBe(400);
    const releaseByBob = await t.app.inject({
      method: 'POST',
      url: `${url(task)}/_release`,
      headers: client().as(bob.token),
    });
    expect(releaseByBob.statusCode).toBe(409);
    expect(await mine(ann.token)).toEqual([expect.objectContaining({ id: task.id, draft: null })]);
  });

  it('clears the draft when the task is submitted', async () => {
    const task = await client().take(ann.token, 6, 'add_questions');
    await saveDraft(ann.token, task, { draft: { added: [{ text: 'How high?' }] } });
    const done = await client().complete(ann.token, task, {
      questions: [{ text: 'How high is the fever?' }, { text: 'Since when?' }],
    });
    expect(done.draft).toBeNull();
  });
});
