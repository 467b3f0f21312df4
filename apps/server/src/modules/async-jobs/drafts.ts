import type { AsyncTask, ChangeLogEntry, TaskParams } from '@loopdesk/contracts/async-jobs.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Database } from '../../platform/db/database.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { findPipeline } from './pipelines.ts';
import { createAsyncTasksRepository, type TaskRow } from './repository.ts';
import { toTask } from './task-view.ts';

type Origin = { ip: string | null; userAgent: string | null; requestId: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Work is never lost (issue 20 point 17): the holder of a task keeps unsaved edits on it as a
 * draft, lists the tasks they hold ("My tasks") and gives one back to its step. Every read and
 * write is audited; a draft is only the holder's, and only while the lease runs.
 */
export function createDraftService(db: Database) {
  const tasks = createAsyncTasksRepository(db);

  /** The open task of the path that `user` holds now, locked for the transaction. */
  const heldTask = async (
    trx: Database,
    params: TaskParams,
    user: RequestUser,
    verb: string,
  ): Promise<TaskRow> => {
    const pipeline = findPipeline(params.pipelineId);
    const missing = notFound(
      `No task '${params.taskId}' in step ${params.step} of pipeline ${params.pipelineId}.`,
    );
    if (!pipeline || !UUID.test(params.taskId)) {
      throw missing;
    }
    const row = await tasks.find(params.taskId, pipeline.id, true, trx);
    if (!row || row.step !== params.step) {
      throw missing;
    }
    if (row.completed_at !== null) {
      throw conflict(`Task ${row.id} is already finished: there is nothing to ${verb}.`);
    }
    if (
      row.lock_holder !== user.id ||
      !row.lock_expires_at ||
      new Date(row.lock_expires_at) <= new Date()
    ) {
      throw conflict(
        `You do not hold task ${row.id} (any more): take it with 'Take Next Job' before you ${verb} it.`,
      );
    }
    return row;
  };

  const audit = (
    action: string,
    user: RequestUser,
    origin: Origin,
    resourceId: string | null,
    details: Record<string, unknown>,
  ) =>
    recordAudit(
      db,
      {
        action,
        outcome: 'success',
        actorId: user.id,
        actorEmail: user.email,
        resourceType: 'async_task',
        resourceId,
        details,
      },
      origin,
    );

  return {
    /** "My tasks": the open tasks the caller holds now. */
    async mine(user: RequestUser, origin: Origin): Promise<AsyncTask[]> {
      const rows = await tasks.held(user.id);
      await audit('async-jobs.task.list-mine', user, origin, null, {
        tasks: rows.map((row) => row.id),
      });
      return rows.map((row) => toTask(row));
    },

    /** Keeps the holder's edits on the task (replacing the last draft). */
    async saveDraft(
      params: TaskParams,
      draft: Record<string, unknown>,
      user: RequestUser,
      origin: Origin,
    ): Promise<AsyncTask> {
      const updated = await db.transaction().execute(async (trx) => {
        const row = await heldTask(trx, params, user, 'keep a draft of');
        return tasks.update(trx, row.id, {
          draft: JSON.stringify(draft),
          updated_at: new Date(),
        });
      });
      await audit('async-jobs.task.draft', user, origin, updated.id, {
        pipeline: updated.pipeline_id,
        step: updated.step,
        fields: Object.keys(draft),
      });
      return toTask(updated);
    },

    /** Gives the task back to its step: the lease and the draft go. */
    async release(params: TaskParams, user: RequestUser, origin: Origin): Promise<AsyncTask> {
      const updated = await db.transaction().execute(async (trx) => {
        const row = await heldTask(trx, params, user, 'release');
        const entry: ChangeLogEntry = {
          action: 'RELEASED',
          user: { id: user.id, email: user.email },
          at: new Date().toISOString(),
          step: row.step,
          fromState: row.state as ChangeLogEntry['toState'],
          toState: row.state as ChangeLogEntry['toState'],
        };
        return tasks.update(trx, row.id, {
          lock_holder: null,
          lock_expires_at: null,
          draft: null,
          change_log: JSON.stringify([...(row.change_log as ChangeLogEntry[]), entry]),
          updated_at: new Date(),
        });
      });
      await audit('async-jobs.task.release', user, origin, updated.id, {
        pipeline: updated.pipeline_id,
        step: updated.step,
      });
      return toTask(updated);
    },
  };
}

export type DraftService = ReturnType<typeof createDraftService>;
