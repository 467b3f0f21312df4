import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { DB, TechnicianSessionsTable } from '../../platform/db/schema.ts';
import type { SessionSource, SessionState } from '@loopdesk/contracts/realtime.ts';

export type SessionRow = Selectable<TechnicianSessionsTable>;
type Executor = Database | Transaction<DB>;

/** SQL over technician sessions. */
export function createSessionsRepository(db: Database, staleMs: number) {
  return {
    /**
     * Takes the (technician, source) slot for a new socket, starting paused. Fails (undefined)
     * while another socket anywhere in the cluster holds it and has been seen recently.
     */
    async attach(
      userId: string,
      source: SessionSource,
      nodeId: string,
      connectionId: string,
      ip: string | null = null,
    ): Promise<SessionRow | undefined> {
      const stale = new Date(Date.now() - staleMs);
      const result = await sql<SessionRow>`
        insert into technician_sessions (user_id, source, state, node_id, connection_id, ip, last_seen_at, updated_at)
        values (${userId}, ${source}, 'paused', ${nodeId}, ${connectionId}, ${ip}, now(), now())
        on conflict (user_id, source) do update set
          state = 'paused', node_id = excluded.node_id, connection_id = excluded.connection_id,
          ip = excluded.ip, last_seen_at = now(), waiting_since = null, current_job_id = null,
          updated_at = now()
        where technician_sessions.connection_id is null or technician_sessions.last_seen_at < ${stale}
        returning *`.execute(db);
      return result.rows[0];
    },

    /**
     * Frees the slot of a closed socket; the session stays listed, paused. Answers the job the
     * session held in the database (a claim or hand-off whose frame may not have gone out), read
     * under the row's lock in the same statement, so no hand-off can slip in between.
     */
    async detach(connectionId: string): Promise<string | null> {
      const result = await sql<{ current_job_id: string | null }>`
        update technician_sessions s set
          connection_id = null, node_id = null, state = 'paused', waiting_since = null,
          current_job_id = null, updated_at = now()
        from (
          select current_job_id from technician_sessions where connection_id = ${connectionId}
          for update
        ) as held
        where s.connection_id = ${connectionId}
        returning held.current_job_id`.execute(db);
      return result.rows[0]?.current_job_id ?? null;
    },

    /**
     * Sessions still marked as holding jobs that went back to their queue (a hand-off whose frame
     * never went out, a lease that ran out) wait again, in the transaction that returned them.
     */
    async waitAgain(jobIds: readonly string[], trx: Executor = db): Promise<void> {
      if (jobIds.length === 0) {
        return;
      }
      await trx
        .updateTable('technician_sessions')
        .set({
          state: 'waiting',
          current_job_id: null,
          waiting_since: new Date(),
          updated_at: new Date(),
        })
        .where('current_job_id', 'in', [...jobIds])
        .where('state', '=', 'activated')
        .execute();
    },

    /** Records a socket's session state and the job it holds, in a transaction when given. */
    async setState(
      connectionId: string,
      state: SessionState,
      currentJobId: string | null,
      trx: Executor = db,
    ): Promise<void> {
      await trx
        .updateTable('technician_sessions')
        .set({
          state,
          current_job_id: currentJobId,
          waiting_since: state === 'waiting' ? new Date() : null,
          updated_at: new Date(),
        })
        .where('connection_id', '=', connectionId)
        .execute();
    },

    /**
     * Marks this node's sockets as alive; answers those that still hold their session (a socket
     * missing from the answer lost it: closed, removed, or taken by a newer socket).
     *
     * Without waiting on the job path: a session seen within `freshMs` (an answer marks its
     * session seen, dispatch-repository.ts) is left alone, and one a job statement holds locked
     * at this moment is passed over (SKIP LOCKED) until the next heartbeat. Touching every
     * session of the node in one update locked all of them together, and the hand-offs passed
     * them over and the answers waited for its commit (bench/README.md, cluster).
     */
    async touch(connectionIds: readonly string[], freshMs: number): Promise<Set<string>> {
      if (connectionIds.length === 0) {
        return new Set();
      }
      const ids = [...connectionIds];
      const result = await sql<{ connection_id: string }>`
        with due as (
          select connection_id from technician_sessions
          where connection_id = any(${ids}::text[])
            and (last_seen_at is null
              or last_seen_at < now() - make_interval(secs => ${freshMs / 1000}))
          for update skip locked
        ),
        touched as (
          update technician_sessions s set last_seen_at = now()
          from due where s.connection_id = due.connection_id
          returning 1
        )
        select connection_id from technician_sessions where connection_id = any(${ids}::text[])`.execute(
        db,
      );
      return new Set(result.rows.map((row) => row.connection_id));
    },

    /** The socket that holds a technician's session of a kind, if any. */
    async holder(userId: string, source: SessionSource): Promise<string | null> {
      const row = await db
        .selectFrom('technician_sessions')
        .select('connection_id')
        .where('user_id', '=', userId)
        .where('source', '=', source)
        .executeTakeFirst();
      return row?.connection_id ?? null;
    },

    /** Every session with its technician's name and whether a socket holds it. */
    async summary(): Promise<
      {
        user_id: string;
        source: SessionSource;
        state: SessionState;
        name: string;
        connected: boolean;
      }[]
    > {
      const stale = new Date(Date.now() - staleMs);
      return db
        .selectFrom('technician_sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select([
          's.user_id',
          's.source',
          's.state',
          sql<string>`coalesce(u.display_name, u.email)`.as('name'),
          sql<boolean>`(s.connection_id is not null and s.last_seen_at >= ${stale})`.as(
            'connected',
          ),
        ])
        .orderBy('u.email')
        .orderBy('s.source')
        .execute();
    },

    /**
     * Technicians with a connected socket: `federated` counts each technician of the federated
     * screen once, whether it holds its federated socket, its priority socket or both.
     */
    async countTechnicians(): Promise<{ federated: number; exception: number }> {
      const stale = new Date(Date.now() - staleMs);
      const row = await db
        .selectFrom('technician_sessions')
        .select([
          sql<number>`count(distinct user_id) filter (where source in ('federated', 'priority'))::int`.as(
            'federated',
          ),
          sql<number>`count(distinct user_id) filter (where source = 'exceptions')::int`.as(
            'exception',
          ),
        ])
        .where('connection_id', 'is not', null)
        .where('last_seen_at', '>=', stale)
        .executeTakeFirstOrThrow();
      return { federated: row.federated, exception: row.exception };
    },

    async remove(userId: string): Promise<number> {
      const result = await db
        .deleteFrom('technician_sessions')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async exists(userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('technician_sessions')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
