import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { annotationData, openSocket, type TestSocket } from '../../test/socket-client.ts';
import { createJobsRepository, type NewJob } from '../jobs/repository.ts';

/** A new job of the federated queue. */
const newJob = (n: number, extra: Partial<NewJob> = {}): NewJob => ({
  queue: 'federated',
  type: 'message.annotation.job',
  tenant: 'acme',
  payload: { n },
  ...extra,
});

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function harness(env: Record<string, string> = {}) {
  const state = {
    t: undefined as unknown as TestApp,
    ann: { token: '', userId: '' },
    ben: { token: '', userId: '' },
    cat: { token: '', userId: '' },
    open: [] as TestSocket[],
  };
  beforeAll(async () => {
    state.t = await startTestApp({ listen: true, env });
    state.ann = await tokenForRoles(state.t, 'ann@example.test', ['annotator']);
    state.ben = await tokenForRoles(state.t, 'ben@example.test', ['annotator']);
    state.cat = await tokenForRoles(state.t, 'cat@example.test', ['annotator']);
  });
  beforeEach(async () => {
    for (const socket of state.open.splice(0)) {
      socket.ws.close();
      await socket.closed;
    }
    // Closing sockets hand their jobs back: wait until every session is let go.
    await until(
      async () =>
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from technician_sessions where connection_id is not null`.execute(
            state.t.database.db,
          )
        ).rows[0]?.n,
      (n) => n === 0,
    );
    await sql`delete from jobs`.execute(state.t.database.db);
  });
  afterAll(async () => {
    for (const socket of state.open) {
      socket.ws.close();
    }
    await state.t.close();
  });
  return {
    state,
    /** A technician who pressed Resume and is waiting. */
    async waiting(token: string): Promise<TestSocket> {
      const socket = await openSocket(state.t.baseUrl, '/ws/federated', token);
      state.open.push(socket);
      await socket.next('technician.session.paused');
      socket.send('technician.session.activate');
      await socket.next('technician.session.waiting');
      return socket;
    },
    /**
     * A job a closed socket held (or was being given) is back in its queue, unassigned, and the
     * technician's session is let go; then the next technician to resume gets it.
     */
    async handedBackAfterClose(jobId: string, userId: string): Promise<void> {
      const back = await until(
        () => this.job(jobId),
        (job) => job.state === 'queued',
      );
      expect(back).toMatchObject({ state: 'queued', assignee_id: null });
      expect(await this.session(userId)).toMatchObject({
        state: 'paused',
        connection_id: null,
        current_job_id: null,
      });
    },
    job: (id: string) =>
      state.t.database.db
        .selectFrom('jobs')
        .select(['state', 'assignee_id', 'attempts'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    session: (userId: string) =>
      state.t.database.db
        .selectFrom('technician_sessions')
        .select(['state', 'current_job_id', 'connection_id'])
        .where('user_id', '=', userId)
        .where('source', '=', 'federated')
        .executeTakeFirstOrThrow(),
    events: (jobId: string) =>
      state.t.database.db
        .selectFrom('outbox_events')
        .select('type')
        .where('job_id', '=', jobId)
        .orderBy('cursor')
        .execute()
        .then((rows) => rows.map((row) => row.type)),
  };
}

describe('direct hand-off: a new job goes to a waiting technician in its own statement', () => {
  // The sweep is slow here, so nothing but the hand-off and the announced claims moves jobs.
  const h = harness();
  const { state } = h;

  it('the longest-waiting technician gets it at once, assigned and audited in the insert', async () => {
    const ann = await h.waiting(state.ann.token);
    const ben = await h.waiting(state.ben.token);

    const first = await state.t.app.hub.add(newJob(1));
    // Stored already assigned: no claim happened between the insert and the hand-off.
    expect(first).toMatchObject({ state: 'assigned', assignee_id: state.ann.userId, attempts: 1 });
    expect(first.conn_id).toBe((await h.session(state.ann.userId)).connection_id);
    expect((await ann.next('message.annotation.job')).data).toMatchObject({
      jobId: first.id,
      tenant: 'acme',
      n: 1,
    });
    expect(await h.session(state.ann.userId)).toMatchObject({
      state: 'activated',
      current_job_id: first.id,
    });

    // Ann holds one job at most: the next goes to Ben, and the one after waits in the queue.
    const second = await state.t.app.hub.add(newJob(2));
    expect(second.assignee_id).toBe(state.ben.userId);
    expect((await ben.next('message.annotation.job')).data.jobId).toBe(second.id);
    const third = await state.t.app.hub.add(newJob(3));
    expect(third).toMatchObject({ state: 'queued', assignee_id: null, conn_id: null });

    // The delivery is in the audit trail with who and from where, as for a claim.
    const audit = await state.t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'actor_email', 'ip'])
      .where('resource_id', '=', first.id)
      .execute();
    expect(audit).toEqual([
      {
        action: 'job.delivered',
        actor_id: state.ann.userId,
        actor_email: 'ann@example.test',
        ip: expect.any(String) as unknown,
      },
    ]);

    // Ann's answer completes her job exactly once; the queued job follows in the same statement.
    ann.send('message.annotation', annotationData(first.id));
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(third.id);
    expect(await h.job(first.id)).toMatchObject({ state: 'completed' });
  });

  it('never jumps an older queued job of higher or equal priority; jumps one of lower priority', async () => {
    const ann = await h.waiting(state.ann.token);
    const jobs = createJobsRepository(state.t.database.db);
    // An older job waits in the queue (its announcement still on its way).
    const older = await jobs.enqueue(newJob(1));
    const newer = await state.t.app.hub.add(newJob(2));
    expect(newer).toMatchObject({ state: 'queued', conn_id: null });
    // The announcement's claim gives Ann the older one first.
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(older.id);
    ann.send('message.annotation', annotationData(older.id));
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(newer.id);
    ann.send('message.annotation', annotationData(newer.id));
    await ann.next('technician.session.waiting');
    await until(
      () => h.session(state.ann.userId),
      (s) => s.state === 'waiting',
    );

    // An older job of lower priority does not hold back an urgent one.
    const routine = await jobs.enqueue(newJob(3, { priority: 0 }));
    const urgent = await state.t.app.hub.add(newJob(4, { priority: 5 }));
    expect(urgent).toMatchObject({ state: 'assigned', assignee_id: state.ann.userId });
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(urgent.id);
    expect((await h.job(routine.id)).state).toBe('queued');
    // Her answer brings the routine job, in the same statement.
    ann.send('message.annotation', annotationData(urgent.id));
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(routine.id);
    ann.send('message.annotation', annotationData(routine.id));
    await ann.next('technician.session.waiting');
    await until(
      () => h.session(state.ann.userId),
      (s) => s.state === 'waiting',
    );
    // But an older job of the same priority does hold back a new one.
    const same = await jobs.enqueue(newJob(5, { priority: 5 }));
    const later = await state.t.app.hub.add(newJob(6, { priority: 5 }));
    expect(later.state).toBe('queued');
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(same.id);
  });

  it('concurrent new jobs and claims never give one technician two jobs, nor one job to two', async () => {
    const sockets = [
      await h.waiting(state.ann.token),
      await h.waiting(state.ben.token),
      await h.waiting(state.cat.token),
    ];
    const added = await Promise.all(
      Array.from({ length: 8 }, (_, n) => state.t.app.hub.add(newJob(n))),
    );
    const assignees = added.flatMap((job) => (job.assignee_id ? [job.assignee_id] : []));
    expect(new Set(assignees).size).toBe(assignees.length);
    // Whatever was not handed off is claimed; each technician ends up with exactly one job.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const socket of sockets) {
      expect(socket.received.filter((e) => e.type === 'message.annotation.job')).toHaveLength(1);
    }
    const rows = await state.t.database.db
      .selectFrom('jobs')
      .select(['id', 'state', 'assignee_id'])
      .execute();
    const assigned = rows.filter((row) => row.state === 'assigned');
    expect(assigned).toHaveLength(3);
    expect(new Set(assigned.map((row) => row.assignee_id)).size).toBe(3);
    expect(rows.filter((row) => row.state === 'queued')).toHaveLength(5);
    for (const user of [state.ann, state.ben, state.cat]) {
      const session = await h.session(user.userId);
      expect(session.state).toBe('activated');
      expect(assigned.find((row) => row.assignee_id === user.userId)?.id).toBe(
        session.current_job_id,
      );
    }
  });

  it('a crash between the commit and the frame: the socket closing returns the job to the queue', async () => {
    const ann = await h.waiting(state.ann.token);
    // The hand-off commits, and the node dies before the frame goes out (announce never runs).
    const handed = await state.t.app.hub.enqueue(newJob(1));
    expect(handed.assignee_id).toBe(state.ann.userId);
    ann.ws.close();
    await ann.closed;
    await h.handedBackAfterClose(handed.id, state.ann.userId);
    expect(await h.events(handed.id)).toEqual(['job.requeued']);
    // The next technician to resume gets it.
    const ben = await h.waiting(state.ben.token);
    expect((await ben.next('message.annotation.job')).data.jobId).toBe(handed.id);
    expect(ann.received.some((e) => e.type === 'message.annotation.job')).toBe(false);
  });

  it('a technician who paused before the frame arrived hands the job back', async () => {
    const ann = await h.waiting(state.ann.token);
    const handed = await state.t.app.hub.enqueue(newJob(1));
    ann.send('technician.session.pause');
    await ann.next('technician.session.paused');
    await state.t.app.hub.announce(handed);
    const back = await until(
      () => h.job(handed.id),
      (job) => job.state === 'queued',
    );
    expect(back).toMatchObject({ state: 'queued', assignee_id: null });
    expect(await h.session(state.ann.userId)).toMatchObject({
      state: 'paused',
      current_job_id: null,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ann.received.some((e) => e.type === 'message.annotation.job')).toBe(false);
  });

  it('the assistant’s POST /api/v1/jobs hands the job over in its own statement, with its audit entries and job.created', async () => {
    const admin = (await tokenForRoles(state.t, 'ada@example.test', ['admin'])).token;
    const created = await state.t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'hand-off test' },
    });
    const key = created.json<{ key: string }>().key;
    const ann = await h.waiting(state.ann.token);
    const reply = await state.t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'hand-off-1' },
      payload: {
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'acme',
        data: { lastTurn: { content: 'My head hurts' } },
      },
    });
    expect(reply.statusCode).toBe(201);
    const job = reply.json<{ id: string; state: string; attempts: number }>();
    expect(job).toMatchObject({ state: 'assigned', attempts: 1 });
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(job.id);
    expect(await h.events(job.id)).toEqual(['job.created']);
    // The event tells the assistant the job exactly as the answer did (built by the statement).
    const event = await state.t.database.db
      .selectFrom('outbox_events')
      .select('data')
      .where('job_id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(event.data).toEqual({ job: reply.json() });
    const audit = await state.t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_email', 'status_code', 'details'])
      .where('resource_id', '=', job.id)
      .orderBy('action')
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'integration.job.create',
        status_code: 201,
        details: expect.objectContaining({ apiKey: 'hand-off test', idempotencyKey: 'hand-off-1' }),
      }),
      expect.objectContaining({ action: 'job.delivered', actor_email: 'ann@example.test' }),
    ]);
  });
});

describe('the next job in the submission’s own statement', () => {
  const h = harness();
  const { state } = h;

  it('a submission brings the oldest queued job at once: no waiting frame, the session stays activated, the delivery audited', async () => {
    const ann = await h.waiting(state.ann.token);
    const first = await state.t.app.hub.add(newJob(1));
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(first.id);
    const jobs = createJobsRepository(state.t.database.db);
    const second = await jobs.enqueue(newJob(2));
    const third = await jobs.enqueue(newJob(3));

    ann.send('message.annotation', annotationData(first.id));
    const next = await ann.next('message.annotation.job');
    expect(next.data).toMatchObject({ jobId: second.id, tenant: 'acme', n: 2 });
    // Waiting was announced once, on Resume; activated once, for the first job.
    expect(ann.received.filter((e) => e.type === 'technician.session.waiting')).toHaveLength(1);
    expect(ann.received.filter((e) => e.type === 'technician.session.activated')).toHaveLength(1);
    expect(await h.job(first.id)).toMatchObject({ state: 'completed' });
    expect(await h.job(second.id)).toMatchObject({
      state: 'assigned',
      assignee_id: state.ann.userId,
      attempts: 1,
    });
    expect(await h.job(third.id)).toMatchObject({ state: 'queued', assignee_id: null });
    expect(await h.session(state.ann.userId)).toMatchObject({
      state: 'activated',
      current_job_id: second.id,
    });
    const audit = await state.t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'resource_id'])
      .where('resource_id', 'in', [first.id, second.id])
      .execute();
    // The answer's statement writes two of them, in no set order.
    expect(audit).toHaveLength(3);
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'job.delivered', actor_id: state.ann.userId, resource_id: first.id },
        { action: 'job.delivered', actor_id: state.ann.userId, resource_id: second.id },
        { action: 'job.submitted', actor_id: state.ann.userId, resource_id: first.id },
      ]),
    );

    // A duplicate of the first answer changes nothing: Ann keeps the second job.
    ann.send('message.annotation', annotationData(first.id));
    await ann.next('error');
    expect(await h.job(second.id)).toMatchObject({
      state: 'assigned',
      assignee_id: state.ann.userId,
    });
    expect(await h.job(third.id)).toMatchObject({ state: 'queued' });

    // The last queued job, then nothing left: the session waits.
    ann.send('message.annotation', annotationData(second.id));
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(third.id);
    ann.send('message.annotation', annotationData(third.id));
    await ann.next('technician.session.waiting');
    expect(await h.session(state.ann.userId)).toMatchObject({
      state: 'waiting',
      current_job_id: null,
    });
  });

  it('a technician who is waiting is served first: the submitter waits and the claim gives the job to the one waiting longer', async () => {
    const ann = await h.waiting(state.ann.token);
    const first = await state.t.app.hub.add(newJob(1));
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(first.id);
    const ben = await h.waiting(state.ben.token);
    // A job waits in its queue while Ben waits (its announcement still on its way).
    const queued = await createJobsRepository(state.t.database.db).enqueue(newJob(2));

    ann.send('message.annotation', annotationData(first.id));
    await ann.next('technician.session.waiting');
    expect((await ben.next('message.annotation.job')).data.jobId).toBe(queued.id);
    expect(await h.job(queued.id)).toMatchObject({ assignee_id: state.ben.userId });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ann.received.filter((e) => e.type === 'message.annotation.job')).toHaveLength(1);
  });

  it('a socket that closes right after its answer hands the job it was given back', async () => {
    const ann = await h.waiting(state.ann.token);
    const first = await state.t.app.hub.add(newJob(1));
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(first.id);
    const queued = await createJobsRepository(state.t.database.db).enqueue(newJob(2));
    ann.send('message.annotation', annotationData(first.id));
    ann.ws.close();
    await ann.closed;
    expect(
      await until(
        () => h.job(first.id),
        (job) => job.state === 'completed',
      ),
    ).toMatchObject({ state: 'completed' });
    await h.handedBackAfterClose(queued.id, state.ann.userId);
    // The next technician to resume gets it.
    const ben = await h.waiting(state.ben.token);
    expect((await ben.next('message.annotation.job')).data.jobId).toBe(queued.id);
  });
});

describe('direct hand-off: the sweep and the lease', () => {
  const h = harness({ LEASE_SWEEP_SECONDS: '1', JOB_LEASE_SECONDS: '5' });
  const { state } = h;

  it('a frame that never came is sent at a later sweep', async () => {
    const ann = await h.waiting(state.ann.token);
    const handed = await state.t.app.hub.enqueue(newJob(1));
    // No announce: the sweep finds the session holding a job its socket never received.
    expect((await ann.next('message.annotation.job', 5000)).data.jobId).toBe(handed.id);
    expect(await h.job(handed.id)).toMatchObject({ state: 'assigned', attempts: 1 });
    expect(await h.events(handed.id)).toEqual([]);
  });

  it('a lease that runs out returns the undelivered job, and its technician waits again', async () => {
    const ann = await h.waiting(state.ann.token);
    const handed = await state.t.app.hub.enqueue(newJob(1));
    await state.t.database.db
      .updateTable('jobs')
      .set({ lease_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', handed.id)
      .execute();
    // Returned by the lease sweep (an attempt spent), then claimed again by the waiting Ann.
    const frame = await ann.next('message.annotation.job', 5000);
    expect(frame.data.jobId).toBe(handed.id);
    expect(await h.job(handed.id)).toMatchObject({ state: 'assigned', attempts: 2 });
    expect(await h.events(handed.id)).toEqual(['job.requeued']);
    expect(await h.session(state.ann.userId)).toMatchObject({
      state: 'activated',
      current_job_id: handed.id,
    });
  });
});
