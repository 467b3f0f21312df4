import {
  DISCARD_NOTE_REQUIRED,
  JOB_QUEUE_EMPTY,
  NEW_TASK_JOB_CLASS,
  NEW_TASK_VERSION,
  SUBMISSIONS,
  type AddTaskBody,
  type AsyncTask,
  type AsyncTaskState,
  type ChangeLogEntry,
  type Pipeline,
  type PipelineStep,
  type PipelineWithStats,
  type TaskParams,
} from '@loopdesk/contracts/async-jobs.ts';
import { hasPrivilege } from '@loopdesk/contracts/privileges.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { createAsyncTasksRepository, type TaskRow } from './repository.ts';
import { applySubmission, resultShortfall } from './submissions.ts';
import { PIPELINES, findPipeline, nextStep } from './pipelines.ts';
import { invalid } from './submission-shapes.ts';
import { toTask } from './task-view.ts';

export type { TaskRow } from './repository.ts';
type Origin = { ip: string | null; userAgent: string | null; requestId: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Everything a new task row holds; the defaults fill the rest. */
export interface NewTask {
  pipeline: Pipeline;
  step?: PipelineStep;
  data: Record<string, unknown>;
  annotations?: { entities: unknown[] };
  condition?: Record<string, unknown>;
  locations?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  createdBy?: { id: string | null; email: string | null };
  createdOn?: Date;
}

/** The asynchronous pipelines: definitions, stats, add, pop, read, submit and discard. */
export function createAsyncJobsService(
  db: Database,
  options: {
    leaseMs: number;
    /** Prefills a new condition task from the knowledge base; undefined when the KB lacks it. */
    conditionFacts?: (
      pipeline: Pipeline,
      condition: string,
      cui: string | null,
    ) => Record<string, unknown> | undefined;
    /** Writes a completed task's approved work back to the knowledge base (issue 7 item 5). */
    knowledge?: {
      record(
        trx: Database,
        task: AsyncTask,
        userId: string,
      ): Promise<{ revision: number; kbVersion: string } | null>;
      published(): Promise<void>;
    };
  },
) {
  const tasks = createAsyncTasksRepository(db);
  const pipelineOf = (pipelineId: string): Pipeline => {
    const pipeline = findPipeline(pipelineId);
    if (!pipeline) {
      throw notFound(
        `No pipeline '${pipelineId}'. The pipelines are ${PIPELINES.map((p) => p.id).join(', ')}.`,
      );
    }
    return pipeline;
  };
  const stepOf = (pipeline: Pipeline, stepName: string): PipelineStep => {
    const found = pipeline.definition.main.steps.find((s) => s.name === stepName);
    if (!found) {
      throw notFound(
        `Pipeline ${pipeline.id} has no step '${stepName}'. Its steps are ${pipeline.definition.main.steps.map((s) => s.name).join(', ')}.`,
      );
    }
    return found;
  };
  const mayWork = (user: RequestUser, pipeline: Pipeline, step: PipelineStep): void => {
    if (step.approval && !hasPrivilege(user.roles, 'jobs:async:approve')) {
      throw forbidden(
        `Step ${step.name} of pipeline ${pipeline.id} is an approval step: it needs the privilege jobs:async:approve.`,
      );
    }
  };
  const entry = (
    action: ChangeLogEntry['action'],
    user: { id: string | null; email: string | null },
    step: string,
    fromState: AsyncTaskState | null,
    toState: AsyncTaskState,
    extra: { note?: string; data?: unknown } = {},
  ): ChangeLogEntry => ({
    action,
    user,
    at: new Date().toISOString(),
    step,
    fromState,
    toState,
    ...extra,
  });
  const who = (user: RequestUser) => ({ id: user.id, email: user.email });

  /** The task of a path, in that pipeline and step; `forUpdate` locks the row. */
  const findTask = async (
    executor: Database,
    params: TaskParams,
    forUpdate: boolean,
  ): Promise<{ pipeline: Pipeline; step: PipelineStep; row: TaskRow }> => {
    const pipeline = pipelineOf(params.pipelineId);
    const step = stepOf(pipeline, params.step);
    const missing = notFound(
      `No task '${params.taskId}' in step ${step.name} of pipeline ${pipeline.id}.`,
    );
    if (!UUID.test(params.taskId)) {
      throw missing;
    }
    const row = await tasks.find(params.taskId, pipeline.id, forUpdate, executor);
    if (!row) {
      throw missing;
    }
    if (row.step !== step.name) {
      throw notFound(
        `Task ${row.id} is not in step ${step.name} of pipeline ${pipeline.id}: it is in step ${row.step}.`,
      );
    }
    return { pipeline, step, row };
  };

  /** Refuses unless the caller holds an unexpired lock on an open task. */
  const holds = (row: TaskRow, user: RequestUser, verb: string): void => {
    if (row.completed_at !== null) {
      throw conflict(
        `Task ${row.id} is already ${row.state === 'DISCARDED' ? 'discarded' : 'completed'}: there is nothing to ${verb}.`,
      );
    }
    if (row.lock_holder !== user.id) {
      throw conflict(
        `You do not hold task ${row.id}: take it with 'Take Next Job' before you ${verb} it.`,
      );
    }
    if (!row.lock_expires_at || new Date(row.lock_expires_at) <= new Date()) {
      throw conflict(
        `Your lock on task ${row.id} expired and the task went back to its step: take it again.`,
      );
    }
  };

  return {
    list(): Pipeline[] {
      return [...PIPELINES];
    },

    async withStats(pipelineId: string): Promise<PipelineWithStats> {
      const pipeline = pipelineOf(pipelineId);
      const rows = await tasks.stepCounts(pipeline.id);
      const byStep = new Map(rows.map((r) => [r.step, r]));
      return {
        ...pipeline,
        stats: {
          steps: pipeline.definition.main.steps.map((s) => ({
            [s.name]: {
              jobs: byStep.get(s.name)?.free ?? 0,
              taken: byStep.get(s.name)?.taken ?? 0,
            },
          })),
        },
      };
    },

    /** Inserts a task in the first step (or `step`) of its pipeline, in that step's state. */
    async insert(task: NewTask, executor: Database = db): Promise<TaskRow> {
      const step = task.step ?? task.pipeline.definition.main.steps[0];
      if (!step) {
        throw new Error(`pipeline ${task.pipeline.id} has no steps`);
      }
      const created = task.createdOn ?? new Date();
      const log = [
        {
          ...entry(
            'CREATED',
            task.createdBy ?? { id: null, email: null },
            step.name,
            null,
            step.state,
          ),
          at: created.toISOString(),
        },
      ];
      return tasks.insert(
        {
          pipeline_id: task.pipeline.id,
          step: step.name,
          job_type: task.pipeline.jobType,
          job_class: NEW_TASK_JOB_CLASS,
          state: step.state,
          version: NEW_TASK_VERSION,
          data: JSON.stringify(task.data),
          annotations: JSON.stringify(task.annotations ?? { entities: [] }),
          condition: JSON.stringify(task.condition ?? {}),
          locations: JSON.stringify(task.locations ?? {}),
          metadata: JSON.stringify(task.metadata ?? {}),
          change_log: JSON.stringify(log),
          created_on: created,
          updated_at: created,
        },
        executor,
      );
    },

    /** `_add_task`: the new task payload of spec 3 §3, for a pipeline with an input form. */
    async addTask(
      pipelineId: string,
      body: AddTaskBody,
      user: RequestUser,
      origin: Origin,
    ): Promise<AsyncTask> {
      const pipeline = pipelineOf(pipelineId);
      if (!pipeline.definition.input) {
        throw badRequest(
          `Pipeline ${pipeline.id} (${pipeline.name}) has no input form: tasks cannot be added to it.`,
        );
      }
      if (body.jobType !== undefined && body.jobType !== pipeline.jobType) {
        throw badRequest(`Pipeline ${pipeline.id} takes jobType '${pipeline.jobType}'.`, [
          { path: 'body.jobType', message: `must be '${pipeline.jobType}'` },
        ]);
      }
      const condition = body.data.condition.trim();
      const cui = body.data.cui?.trim() || null;
      const row = await this.insert({
        pipeline,
        data: {
          condition,
          reference: body.data.reference.trim(),
          notes: body.data.notes ?? '',
          cui,
        },
        condition: options.conditionFacts?.(pipeline, condition, cui) ?? {
          name: condition,
          cui,
          observations: [],
          complications: [],
        },
        metadata: { ...body.metadata, source: 'portal' },
        createdBy: who(user),
      });
      await recordAudit(
        db,
        {
          action: 'async-jobs.task.add',
          outcome: 'success',
          actorId: user.id,
          actorEmail: user.email,
          resourceType: 'async_task',
          resourceId: row.id,
          details: { pipeline: pipeline.id, condition },
        },
        origin,
      );
      return toTask(row);
    },

    /**
     * Takes the oldest free task of a step (an expired lock counts as free) and leases it to the
     * caller, in one statement: concurrent takers skip the row another one is locking.
     */
    async pop(pipelineId: string, stepName: string, user: RequestUser): Promise<AsyncTask> {
      const pipeline = pipelineOf(pipelineId);
      const step = stepOf(pipeline, stepName);
      mayWork(user, pipeline, step);
      const taken = JSON.stringify([entry('TAKEN', who(user), step.name, step.state, step.state)]);
      const row = await tasks.take({
        pipelineId: pipeline.id,
        step: step.name,
        userId: user.id,
        leaseSeconds: options.leaseMs / 1000,
        takenLog: taken,
      });
      if (!row) {
        throw notFound(JOB_QUEUE_EMPTY);
      }
      return toTask(row);
    },

    async get(params: TaskParams): Promise<AsyncTask> {
      return toTask((await findTask(db, params, false)).row);
    },

    /** Submit: checks the body for the step, applies it, moves the task on or completes it. */
    async submit(
      params: TaskParams,
      body: { id: string; data: unknown },
      user: RequestUser,
      origin: Origin,
    ): Promise<AsyncTask> {
      const pipeline = pipelineOf(params.pipelineId);
      mayWork(user, pipeline, stepOf(pipeline, params.step));
      if (body.id !== params.taskId) {
        throw badRequest(
          `The body's id '${body.id}' is not the task of the path (${params.taskId}).`,
          [{ path: 'body.id', message: `must be '${params.taskId}'` }],
        );
      }
      let revised = false;
      const updated = await db.transaction().execute(async (trx) => {
        const { step, row } = await findTask(trx, params, true);
        holds(row, user, 'submit');
        const schema = SUBMISSIONS[step.submission];
        const parsed = schema.safeParse(body.data);
        if (!parsed.success) {
          throw invalid('body.data', parsed.error, step.submission);
        }
        const next = nextStep(pipeline, step.name);
        const toState: AsyncTaskState = next ? next.state : 'COMPLETED';
        const current = toTask(row);
        const changes = applySubmission(step.submission, current, parsed.data);
        const shortfall = resultShortfall(step.submission, changes);
        if (shortfall) {
          throw badRequest(shortfall.message, [shortfall]);
        }
        const log = [
          ...(row.change_log as ChangeLogEntry[]),
          entry('SUBMITTED', who(user), step.name, row.state as AsyncTaskState, toState, {
            data: parsed.data,
          }),
        ];
        // The last step: the approved work becomes a new version of the knowledge base, in
        // this transaction, with the task as its provenance.
        const revision =
          next || !options.knowledge
            ? null
            : await options.knowledge.record(
                trx,
                { ...current, ...changes, state: toState, changeLog: log },
                user.id,
              );
        revised ||= revision !== null;
        return tasks.update(trx, row.id, {
          step: next ? next.name : step.name,
          state: toState,
          data: JSON.stringify(changes.data),
          annotations: JSON.stringify(changes.annotations),
          condition: JSON.stringify(changes.condition),
          locations: JSON.stringify(changes.locations),
          change_log: JSON.stringify(log),
          ...(revision
            ? {
                metadata: JSON.stringify({
                  ...row.metadata,
                  kbRevision: revision.revision,
                  kbVersion: revision.kbVersion,
                }),
              }
            : {}),
          lock_holder: null,
          lock_expires_at: null,
          draft: null,
          updated_at: new Date(),
          completed_at: next ? null : new Date(),
        });
      });
      await recordAudit(
        db,
        {
          action: 'async-jobs.task.submit',
          outcome: 'success',
          actorId: user.id,
          actorEmail: user.email,
          resourceType: 'async_task',
          resourceId: updated.id,
          details: { pipeline: pipeline.id, step: params.step, state: updated.state },
        },
        origin,
      );
      if (revised) {
        await options.knowledge?.published();
      }
      return toTask(updated);
    },

    /** Discard: ends the task with the note. */
    async discard(
      params: TaskParams,
      reason: string | undefined,
      user: RequestUser,
      origin: Origin,
    ): Promise<AsyncTask> {
      const pipeline = pipelineOf(params.pipelineId);
      mayWork(user, pipeline, stepOf(pipeline, params.step));
      const note = reason?.trim() ?? '';
      const updated = await db.transaction().execute(async (trx) => {
        const { step, row } = await findTask(trx, params, true);
        holds(row, user, 'discard');
        if (!note) {
          throw badRequest(DISCARD_NOTE_REQUIRED, [
            { path: 'querystring.reason', message: DISCARD_NOTE_REQUIRED },
          ]);
        }
        const log = [
          ...(row.change_log as ChangeLogEntry[]),
          entry('DISCARDED', who(user), step.name, row.state as AsyncTaskState, 'DISCARDED', {
            note,
          }),
        ];
        return tasks.update(trx, row.id, {
          state: 'DISCARDED',
          discarded_note: note,
          change_log: JSON.stringify(log),
          lock_holder: null,
          lock_expires_at: null,
          draft: null,
          updated_at: new Date(),
          completed_at: new Date(),
        });
      });
      await recordAudit(
        db,
        {
          action: 'async-jobs.task.discard',
          outcome: 'success',
          actorId: user.id,
          actorEmail: user.email,
          resourceType: 'async_task',
          resourceId: updated.id,
          details: { pipeline: pipeline.id, step: params.step, note },
        },
        origin,
      );
      return toTask(updated);
    },
  };
}

export type AsyncJobsService = ReturnType<typeof createAsyncJobsService>;
