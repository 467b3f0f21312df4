import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { AsyncTasksTable } from '../../platform/db/schema.ts';

export type TaskRow = Selectable<AsyncTasksTable>;

/** SQL over `async_tasks`; `executor` is the transaction when the service holds one. */
export function createAsyncTasksRepository(db: Database) {
  return {
    /** A task of a pipeline; `forUpdate` locks the row until the transaction ends. */
    find(
      id: string,
      pipelineId: number,
      forUpdate: boolean,
      executor: Database = db,
    ): Promise<TaskRow | undefined> {
      let query = executor
        .selectFrom('async_tasks')
        .selectAll()
        .where('id', '=', id)
        .where('pipeline_id', '=', pipelineId);
      if (forUpdate) {
        query = query.forUpdate();
      }
      return query.executeTakeFirst();
    },

    /** Free and taken open tasks per step of a pipeline (an expired lock counts as free). */
    stepCounts(pipelineId: number) {
      return db
        .selectFrom('async_tasks')
        .select([
          'step',
          sql<number>`count(*) filter (where lock_holder is null or lock_expires_at <= now())::int`.as(
            'free',
          ),
          sql<number>`count(*) filter (where lock_holder is not null and lock_expires_at > now())::int`.as(
            'taken',
          ),
        ])
        .where('pipeline_id', '=', pipelineId)
        .where('completed_at', 'is', null)
        .groupBy('step')
        .execute();
    },

    insert(row: Insertable<AsyncTasksTable>, executor: Database = db): Promise<TaskRow> {
      return executor
        .insertInto('async_tasks')
        .values(row)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /**
     * Leases the oldest free task of a step to `userId` in one statement (concurrent takers skip
     * the row another one is locking); an expired lock it replaces is logged as LOCK_EXPIRED.
     */
    async take(input: {
      pipelineId: number;
      step: string;
      userId: string;
      leaseSeconds: number;
      /** The TAKEN entry, as a JSON array, appended to the change log. */
      takenLog: string;
    }): Promise<TaskRow | undefined> {
      const result = await sql<TaskRow>`
        update async_tasks set
          change_log = change_log
            || case when lock_holder is null then '[]'::jsonb else jsonb_build_array(
                 jsonb_build_object(
                   'action', 'LOCK_EXPIRED',
                   'user', jsonb_build_object('id', lock_holder::text, 'email', null),
                   'at', to_json(lock_expires_at) #>> '{}',
                   'step', step, 'fromState', state, 'toState', state)) end
            || ${input.takenLog}::jsonb,
          lock_holder = ${input.userId},
          draft = null,
          lock_expires_at = now() + make_interval(secs => ${input.leaseSeconds}),
          updated_at = now()
        where id = (
          select id from async_tasks
          where pipeline_id = ${input.pipelineId} and step = ${input.step} and completed_at is null
            and (lock_holder is null or lock_expires_at <= now())
          order by created_on asc, seq asc
          for update skip locked
          limit 1
        )
        returning *`.execute(db);
      return result.rows[0];
    },

    /** The open tasks `userId` holds now, oldest taken first. */
    held(userId: string): Promise<TaskRow[]> {
      return db
        .selectFrom('async_tasks')
        .selectAll()
        .where('lock_holder', '=', userId)
        .where('lock_expires_at', '>', sql<Date>`now()`)
        .where('completed_at', 'is', null)
        .orderBy('lock_expires_at', 'asc')
        .execute();
    },

    update(trx: Database, id: string, changes: Updateable<AsyncTasksTable>): Promise<TaskRow> {
      return trx
        .updateTable('async_tasks')
        .set(changes)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Whether any task exists, after waiting for the other seeders (demo mode) until `trx` ends. */
    async lockSeedAndHasAny(trx: Database): Promise<boolean> {
      // One seeder at a time across nodes sharing the database.
      await sql`select pg_advisory_xact_lock(hashtext('async_tasks.seed'))`.execute(trx);
      const any = await trx.selectFrom('async_tasks').select('id').limit(1).executeTakeFirst();
      return any !== undefined;
    },
  };
}

export type AsyncTasksRepository = ReturnType<typeof createAsyncTasksRepository>;
