import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DUPLICATE_SESSION_MESSAGE } from '@loopdesk/contracts/realtime.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { annotationData, openSocket, type TestSocket } from '../../test/socket-client.ts';
import { createJobsRepository, TECHNICIAN_LEFT } from '../jobs/repository.ts';
import { STALE_SUBMISSION_MESSAGE } from './submission.ts';

const b64 = (value: string) => Buffer.from(value).toString('base64');

describe('technician sessions over WebSockets', () => {
  let t: TestApp;
  let ann: { token: string; userId: string };
  let ben: { token: string; userId: string };
  let admin: string;
  let approver: string;
  const open: TestSocket[] = [];

  const connect = async (token: string, path = '/ws/federated', options = {}) => {
    const socket = await openSocket(t.baseUrl, path, token, options);
    open.push(socket);
    return socket;
  };
  const enqueue = async (
    payload: Record<string, unknown> = { lastTurn: { content: 'I have a headache' } },
  ) => {
    const job = await createJobsRepository(t.database.db).enqueue({
      queue: 'federated',
      type: 'message.annotation.job',
      tenant: 'acme',
      payload,
    });
    await t.app.hub.jobsAvailable(['federated']);
    return job;
  };
  const jobState = async (id: string) =>
    await t.database.db
      .selectFrom('jobs')
      .select(['state', 'result', 'assignee_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await startTestApp({
      listen: true,
      // A second of heartbeat: a socket is closed after two seconds of silence, which a loaded CI
      // machine's pauses do not reach (at 0.2 s a starved test client's pong came too late).
      env: { SOCKET_HEARTBEAT_SECONDS: '1', LEASE_SWEEP_SECONDS: '0.1' },
    });
    ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    ben = await tokenForRoles(t, 'ben@example.test', ['annotator']);
    admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    approver = (await tokenForRoles(t, 'abe@example.test', ['approver'])).token;
  });
  beforeEach(async () => {
    for (const socket of open.splice(0)) {
      socket.ws.close();
      await socket.closed;
    }
    await sql`delete from jobs`.execute(t.database.db);
  });
  afterAll(async () => {
    for (const socket of open) {
      socket.ws.close();
    }
    await t.close();
  });

  it('a socket without a token, or without the privilege, is refused', async () => {
    await expect(openSocket(t.baseUrl, '/ws/federated', null)).rejects.toThrow(/401/);
    await expect(openSocket(t.baseUrl, '/ws/federated', 'forged.token.value')).rejects.toThrow(
      /401/,
    );
    await expect(openSocket(t.baseUrl, '/ws/federated', approver)).rejects.toThrow(/403/);
    // Each refusal is in the audit trail.
    const refused = await t.database.db
      .selectFrom('audit_events')
      .select(['status_code', 'actor_email'])
      .where('action', '=', 'request.refused')
      .where(sql<boolean>`details->>'url' = '/ws/federated'`)
      .orderBy('id')
      .execute();
    expect(refused.slice(-3)).toEqual([
      { status_code: 401, actor_email: null },
      { status_code: 401, actor_email: null },
      { status_code: 403, actor_email: 'abe@example.test' },
    ]);
  });

  it('a session starts paused; every frame is a CloudEvents envelope from /portal', async () => {
    const socket = await connect(ann.token);
    const paused = await socket.next('technician.session.paused');
    expect(paused).toMatchObject({
      source: '/portal',
      datacontenttype: 'application/json',
      data: { state: 'paused', source: 'federated' },
    });
  });

  it('a second socket for the same technician is closed with 1008 and the spec message', async () => {
    const first = await connect(ann.token);
    await first.next('technician.session.paused');
    const second = await connect(ann.token);
    const closed = await second.closed;
    expect(closed.code).toBe(1008);
    expect(DUPLICATE_SESSION_MESSAGE.startsWith(closed.reason)).toBe(true);
    // The first one is untouched.
    first.send('technician.session.activate');
    await first.next('technician.session.waiting');
  });

  it('a reload (the old socket closing as the new one opens) keeps the session instead of 1008', async () => {
    const before = await connect(ann.token);
    before.send('technician.session.activate');
    await before.next('technician.session.waiting');
    const job = await enqueue();
    await before.next('message.annotation.job');

    // The page reloads: the old socket closes and the new one opens at once.
    before.ws.close();
    const after = await connect(ann.token);
    await after.next('technician.session.paused');
    after.send('technician.session.activate');
    // The job the old socket held went back to its queue and comes to the new one.
    expect((await after.next('message.annotation.job')).data.jobId).toBe(job.id);
  });

  it('a waiting technician receives the oldest job at once, submits it exactly once, and gets the next', async () => {
    // First, Ann resumes. Second, the assistant enqueues two jobs. Ann receives the first.
    const socket = await connect(ann.token);
    socket.send('technician.session.activate');
    await socket.next('technician.session.waiting');
    const first = await enqueue({ n: 1 });
    const second = await enqueue({ n: 2 });
    await socket.next('technician.session.activated');
    const job = await socket.next('message.annotation.job');
    expect(job.data).toMatchObject({ jobId: first.id, tenant: 'acme', n: 1 });

    // An activated technician holds one job at most: the second waits for the first's result.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(socket.received.filter((e) => e.type === 'message.annotation.job')).toHaveLength(1);
    expect((await jobState(second.id)).state).toBe('queued');

    socket.send(
      'message.annotation',
      annotationData(first.id, {
        entities: [{ start: 7, end: 15, extract: 'headache', category: 'sx' }],
      }),
    );
    // The next job comes in the answer's own statement: the session stays activated.
    const next = await socket.next('message.annotation.job');
    expect(next.data.jobId).toBe(second.id);
    expect(socket.received.filter((e) => e.type === 'technician.session.waiting')).toHaveLength(1);
    expect(await jobState(first.id)).toMatchObject({
      state: 'completed',
      result: { type: 'message.annotation', data: { action: 'answer' } },
    });

    // A duplicate of the first submission changes nothing and says so.
    socket.send('message.annotation', annotationData(first.id));
    const error = await socket.next('error');
    expect(error.data.message).toBe(STALE_SUBMISSION_MESSAGE);
    expect((await jobState(first.id)).result).toMatchObject({
      data: { entities: [{ extract: 'headache' }] },
    });
    expect((await jobState(second.id)).state).toBe('assigned');

    // Reading the patient's message and changing it are both in the audit trail, with who and where.
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'actor_email', 'ip', 'outcome'])
      .where('resource_id', '=', first.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['job.delivered', 'job.submitted']);
    expect(audit[0]).toMatchObject({
      actor_id: ann.userId,
      actor_email: 'ann@example.test',
      outcome: 'success',
    });
    expect(audit[1]?.ip).toBeTruthy();

    // The assistant hears of the result exactly once, through the outbox.
    const events = await t.database.db
      .selectFrom('outbox_events')
      .select(['type', 'data'])
      .where('job_id', '=', first.id)
      .where('type', '=', 'job.completed')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      job: { id: first.id, state: 'completed', result: { type: 'message.annotation' } },
    });
  });

  it('every job type goes out as its own event, and every submission type completes its job', async () => {
    // One technician on /ws/federated and one on /ws/priority; the assistant sends each kind of job.
    const federated = await connect(ann.token);
    federated.send('technician.session.activate');
    await federated.next('technician.session.waiting');
    const priority = await connect(ben.token, '/ws/priority');
    priority.send('technician.session.activate');
    await priority.next('technician.session.waiting');
    const ids = { conversationId: 'c-1', messageId: 'm-1' };
    const cases: {
      queue: 'federated' | 'priority';
      type: string;
      schema: string;
      submission: string;
      data: Record<string, unknown>;
      payload?: Record<string, unknown>;
    }[] = [
      {
        queue: 'federated',
        type: 'message.annotation.job',
        schema: `${t.config.publicUrl}/schemas/20200718/quinn.json`,
        submission: 'message.annotation.exception',
        data: { action: 'exception', ...ids, slot: { id: 's-1', code: 'onset' } },
      },
      {
        queue: 'federated',
        type: 'message.annotation.job',
        schema: `${t.config.publicUrl}/schemas/20200718/quinn.json`,
        submission: 'message.rephrase.question',
        data: {
          conversationId: 'c-1',
          recipientId: 'patient-1',
          message: 'When did it start?',
          replyType: 'REPHRASE',
          replyTo: 'm-1',
        },
      },
      {
        queue: 'federated',
        type: 'message.annotation.job',
        schema: `${t.config.publicUrl}/schemas/20200718/quinn.json`,
        submission: 'quinn.action.answer_quinn',
        data: { action: 'suggest_entity_reword', ...ids, rewordings: [] },
      },
      {
        queue: 'federated',
        type: 'intent.classification.job',
        schema: `${t.config.publicUrl}/schemas/20200718/quinn.json`,
        submission: 'message.annotation',
        data: {
          message: { ...ids, userId: 'patient-1' },
          entities: [{ start: 10, end: 17, extract: 'inhaler', category: 'repeat_prescription' }],
        },
      },
      {
        queue: 'federated',
        type: 'robot-process-automation.manual-step.job',
        schema: `${t.config.publicUrl}/schemas/rpa.json`,
        submission: 'rpa.robot.clear',
        data: { action: 'clear' },
      },
      {
        queue: 'priority',
        type: 'intent.hpi.priority.job',
        schema: `${t.config.publicUrl}/schemas/20200718/quinn.json`,
        submission: 'hpi.prioritised',
        data: { action: 'set_priority', conversationId: 'c-1', priority: 'c2' },
        payload: {
          priority: 'Which worries you most?',
          choices: [
            { id: 'c1', extract: 'inhaler' },
            { id: 'c2', extract: 'rash' },
          ],
        },
      },
      {
        queue: 'priority',
        type: 'intent.hpi.priority.job',
        schema: `${t.config.publicUrl}/schemas/20200718/quinn.json`,
        submission: 'hpi.prioritised.exception',
        data: { action: 'exception', conversationId: 'c-1' },
      },
    ];
    for (const c of cases) {
      const socket = c.queue === 'priority' ? priority : federated;
      const job = await createJobsRepository(t.database.db).enqueue({
        queue: c.queue,
        type: c.type,
        tenant: 'acme',
        payload: c.payload ?? { lastTurn: { content: 'I need my inhaler' } },
      });
      await t.app.hub.jobsAvailable([c.queue]);
      const received = await socket.next(c.type);
      expect(received, c.submission).toMatchObject({
        dataschema: c.schema,
        data: { jobId: job.id, tenant: 'acme' },
      });
      socket.send(c.submission, { ...c.data, jobId: job.id });
      await socket.next('technician.session.waiting');
      expect(await jobState(job.id), c.submission).toMatchObject({
        state: 'completed',
        result: { type: c.submission, data: { ...c.data, jobId: job.id } },
      });
    }
  });

  it('a submission whose payload breaks its schema says which field, changes nothing, and keeps the job', async () => {
    const socket = await connect(ann.token);
    socket.send('technician.session.activate');
    const job = await enqueue();
    await socket.next('message.annotation.job');
    socket.send('message.annotation', annotationData(job.id, { conversationId: undefined }));
    const missing = await socket.next('error');
    expect(missing.data.message).toBe(
      'The message.annotation data does not match its schema: data.conversationId Invalid input: expected string, received undefined. It changed nothing: fix it and submit again.',
    );
    socket.send('hpi.prioritised', { jobId: job.id, action: 'set_priority' });
    expect((await socket.next('error')).data.message).toMatch(
      /^The hpi.prioritised data does not match its schema: data.conversationId .*data.priority /,
    );
    socket.send('quinn.action.answer_quinn', { jobId: job.id, action: 'guess' });
    expect((await socket.next('error')).data.message).toMatch(/data.action Invalid option/);
    expect(await jobState(job.id)).toMatchObject({ state: 'assigned', result: null });

    // Fixed, it completes.
    socket.send('message.annotation', annotationData(job.id));
    await socket.next('technician.session.waiting');
    expect((await jobState(job.id)).state).toBe('completed');
  });

  it('POST /internal/users/me/_events completes the held job with dh.portal.hitl.event', async () => {
    const socket = await connect(ann.token);
    socket.send('technician.session.activate');
    const job = await enqueue();
    await socket.next('message.annotation.job');
    const post = (token: string | null, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/internal/users/me/_events',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        payload: body as Record<string, unknown>,
      });
    const event = (data: Record<string, unknown>, type = 'dh.portal.hitl.event') => ({
      specversion: '1.0',
      id: 'portal-event-1',
      type,
      source: '/portal',
      data,
    });

    expect((await post(null, event({ jobId: job.id }))).statusCode).toBe(401);
    const wrongType = await post(ann.token, event({ jobId: job.id }, 'message.annotation'));
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toMatchObject({
      error: 'Bad Request',
      details: [{ path: 'body.type', message: 'must be dh.portal.hitl.event' }],
    });
    const notHeld = await post(ben.token, event({ jobId: job.id }));
    expect(notHeld.statusCode).toBe(409);
    expect(notHeld.json().message).toMatch(/job you do not hold/);
    expect((await jobState(job.id)).state).toBe('assigned');

    const accepted = await post(ann.token, event({ jobId: job.id, outcome: 'handled' }));
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({ accepted: true });
    await socket.next('technician.session.waiting');
    expect(await jobState(job.id)).toMatchObject({
      state: 'completed',
      result: { type: 'dh.portal.hitl.event', data: { outcome: 'handled' } },
    });
    // Sent twice, the second changes nothing.
    expect((await post(ann.token, event({ jobId: job.id }))).statusCode).toBe(409);
  });

  it('dh.portal.hitl.event sent on the socket and posted to the events call completes the job once, whichever comes first', async () => {
    const post = (event: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/internal/users/me/_events',
        headers: { authorization: `Bearer ${ann.token}` },
        payload: event,
      });
    const portalEvent = (id: string, jobId: string) => ({
      specversion: '1.0',
      id,
      type: 'dh.portal.hitl.event',
      source: '/portal',
      datacontenttype: 'application/json',
      data: { jobId, action: 'next', conversationId: 'conv-1', userId: 'patient-1' },
    });
    const socket = await connect(ann.token);
    socket.send('technician.session.activate');

    // The socket's copy first: it completes the job; the posted copy is taken and changes nothing.
    const first = await enqueue();
    await socket.next('message.annotation.job');
    const viaSocket = portalEvent('portal-socket-first', first.id);
    socket.sendRaw(JSON.stringify(viaSocket));
    await socket.next('technician.session.waiting');
    const afterSocket = await jobState(first.id);
    expect(afterSocket).toMatchObject({
      state: 'completed',
      result: { type: 'dh.portal.hitl.event', data: viaSocket.data },
    });
    const copy = await post(viaSocket);
    expect(copy.statusCode).toBe(202);
    expect(copy.json()).toEqual({ accepted: true });
    expect(await jobState(first.id)).toEqual(afterSocket);
    // The same job with other data is still refused.
    const otherData = await post({
      ...viaSocket,
      data: { ...viaSocket.data, action: 'redirect' },
    });
    expect(otherData.statusCode).toBe(409);

    // The posted copy first: it completes the job; the socket's copy is no error for the technician.
    const second = await enqueue();
    await socket.next('message.annotation.job');
    const viaHttp = portalEvent('portal-http-first', second.id);
    expect((await post(viaHttp)).statusCode).toBe(202);
    await socket.next('technician.session.waiting');
    expect((await jobState(second.id)).state).toBe('completed');
    socket.sendRaw(JSON.stringify(viaHttp));
    // Frames are handled in order: an error for the copy would come before the pause.
    socket.send('technician.session.pause');
    await socket.next('technician.session.paused');
    expect(socket.received.filter((e) => e.type === 'error')).toEqual([]);
    // One job.completed each for the assistant, whichever copy came first.
    const completions = await t.database.db
      .selectFrom('outbox_events')
      .select('job_id')
      .where('type', '=', 'job.completed')
      .where('job_id', 'in', [first.id, second.id])
      .execute();
    expect(completions.map((e) => e.job_id).sort()).toEqual([first.id, second.id].sort());
  });

  it('a job whose announcement was lost still reaches a waiting technician at the next sweep', async () => {
    const socket = await connect(ann.token);
    socket.send('technician.session.activate');
    await socket.next('technician.session.waiting');
    // Committed, but nobody is told (as when Redis drops the message).
    const job = await createJobsRepository(t.database.db).enqueue({
      queue: 'federated',
      type: 'message.annotation.job',
      tenant: 'acme',
      payload: {},
    });
    expect((await socket.next('message.annotation.job', 3000)).data.jobId).toBe(job.id);
  });

  it('invalid frames get an error event and the socket stays open', async () => {
    const socket = await connect(ann.token);
    await socket.next('technician.session.paused');
    socket.sendRaw('not json');
    expect((await socket.next('error')).data.message).toMatch(/not JSON/);
    socket.sendRaw(JSON.stringify({ type: 'technician.session.activate' }));
    expect((await socket.next('error')).data.message).toMatch(/CloudEvents envelope/);
    socket.send('technician.session.conversation.switch', {});
    expect((await socket.next('error')).data.message).toBe(
      'technician.session.conversation.switch is not accepted on the federated socket.',
    );
    socket.send('message.annotation', { action: 'answer' });
    expect((await socket.next('error')).data.message).toMatch(/jobId/);
    socket.sendRaw(
      JSON.stringify({
        specversion: '1.0',
        id: '1',
        type: 'x',
        source: '/portal',
        data: 'y'.repeat(300 * 1024),
      }),
    );
    expect((await socket.next('error')).data.message).toMatch(/larger than/);
    socket.send('technician.session.activate');
    await socket.next('technician.session.waiting');
  });

  it('a socket that closes puts its job back at the head of the queue for the next technician', async () => {
    const annSocket = await connect(ann.token);
    annSocket.send('technician.session.activate');
    await annSocket.next('technician.session.waiting');
    const job = await enqueue();
    await annSocket.next('message.annotation.job');
    annSocket.ws.close();
    await annSocket.closed;

    const benSocket = await connect(ben.token);
    benSocket.send('technician.session.activate');
    const received = await benSocket.next('message.annotation.job');
    expect(received.data.jobId).toBe(job.id);
    // The assistant is told the job went back to its queue.
    const requeued = await t.database.db
      .selectFrom('outbox_events')
      .select('type')
      .where('job_id', '=', job.id)
      .where('type', '=', 'job.requeued')
      .execute();
    expect(requeued).toHaveLength(1);
  });

  it('pausing hands the held job back', async () => {
    const socket = await connect(ann.token);
    socket.send('technician.session.activate');
    const job = await enqueue();
    await socket.next('message.annotation.job');
    socket.send('technician.session.pause');
    await socket.next('technician.session.paused');
    expect((await jobState(job.id)).state).toBe('queued');
  });

  it('a socket that stops answering pings is closed and its job returns to the queue', async () => {
    const socket = await connect(ann.token, '/ws/federated', { answerPings: false });
    socket.send('technician.session.activate');
    const job = await enqueue();
    await socket.next('message.annotation.job');
    await socket.closed;
    await expect.poll(async () => (await jobState(job.id)).state, { timeout: 3000 }).toBe('queued');
  });

  it('a lease that runs out returns the job and tells the technician', async () => {
    const short = await startTestApp({
      listen: true,
      env: { JOB_LEASE_SECONDS: '5', LEASE_SWEEP_SECONDS: '0.1' },
    });
    try {
      const user = await tokenForRoles(short, 'lee@example.test', ['annotator']);
      const socket = await openSocket(short.baseUrl, '/ws/federated', user.token);
      socket.send('technician.session.activate');
      const job = await createJobsRepository(short.database.db).enqueue({
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'acme',
        payload: {},
      });
      await short.app.hub.jobsAvailable(['federated']);
      await socket.next('message.annotation.job');
      await short.database.db
        .updateTable('jobs')
        .set({ lease_expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', job.id)
        .execute();
      expect((await socket.next('error', 3000)).data.message).toMatch(/went back to the queue/);
      // It is offered again (to the same waiting technician, the only one).
      const again = await socket.next('message.annotation.job', 3000);
      expect(again.data.jobId).toBe(job.id);
      socket.ws.close();
      await socket.closed;
    } finally {
      await short.close();
    }
  });

  it('a job handed back JOB_MAX_ATTEMPTS times is dead-lettered, told to the assistant and listed for admins', async () => {
    const limited = await startTestApp({ listen: true, env: { JOB_MAX_ATTEMPTS: '2' } });
    try {
      const technicians = [
        await tokenForRoles(limited, 'max@example.test', ['annotator']),
        await tokenForRoles(limited, 'mia@example.test', ['annotator']),
      ];
      const adminToken = (await tokenForRoles(limited, 'ada@example.test', ['admin'])).token;
      const job = await createJobsRepository(limited.database.db).enqueue({
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'acme',
        payload: {},
      });
      await limited.app.hub.jobsAvailable(['federated']);
      // Each technician receives it and drops the connection without an answer.
      for (const technician of technicians) {
        const socket = await openSocket(limited.baseUrl, '/ws/federated', technician.token);
        socket.send('technician.session.activate');
        expect((await socket.next('message.annotation.job')).data.jobId).toBe(job.id);
        socket.ws.terminate();
        await socket.closed;
        await expect
          .poll(
            async () =>
              (
                await limited.database.db
                  .selectFrom('jobs')
                  .select('state')
                  .where('id', '=', job.id)
                  .executeTakeFirstOrThrow()
              ).state,
          )
          .not.toBe('assigned');
      }
      const row = await limited.database.db
        .selectFrom('jobs')
        .select(['state', 'attempts'])
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ state: 'dead', attempts: 2 });
      const events = await limited.database.db
        .selectFrom('outbox_events')
        .select('type')
        .where('job_id', '=', job.id)
        .orderBy('cursor')
        .execute();
      expect(events.map((e) => e.type)).toEqual(['job.requeued', 'job.dead']);
      const dead = await limited.app.inject({
        method: 'GET',
        url: '/internal/jobs/_dead',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(dead.json().items).toEqual([
        {
          id: job.id,
          queue: 'federated',
          type: 'message.annotation.job',
          tenant: 'acme',
          attempts: 2,
          lastError: TECHNICIAN_LEFT,
          createdAt: new Date(job.created_at).toISOString(),
          deadAt: expect.any(String),
        },
      ]);

      // An admin requeues it: a waiting technician receives it at once, with fresh attempts.
      const waiting = await openSocket(
        limited.baseUrl,
        '/ws/federated',
        technicians[0]?.token ?? '',
      );
      await waiting.next('technician.session.paused');
      waiting.send('technician.session.activate');
      await waiting.next('technician.session.waiting');
      const requeued = await limited.app.inject({
        method: 'POST',
        url: `/internal/jobs/${job.id}/_requeue`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(requeued.statusCode).toBe(200);
      expect(requeued.json()).toMatchObject({ id: job.id, state: 'queued', attempts: 0 });
      expect((await waiting.next('message.annotation.job')).data.jobId).toBe(job.id);
      waiting.ws.close();
      await waiting.closed;
    } finally {
      await limited.close();
    }
  });

  it('admins see sessions and counts, and can close or remove a technician session', async () => {
    const socket = await connect(ann.token);
    await socket.next('technician.session.paused');
    const auth = { authorization: `Bearer ${admin}` };
    const summary = await t.app.inject({
      method: 'GET',
      url: '/internal/sessions/_summary',
      headers: auth,
    });
    expect(summary.json().items).toContainEqual({
      technicianId: ann.userId,
      state: 'paused',
      source: 'federated',
      name: 'ann@example.test',
      connected: true,
    });
    const count = await t.app.inject({
      method: 'GET',
      url: '/internal/sessions/_count',
      headers: { authorization: `Bearer ${ann.token}` },
    });
    expect(count.json()).toEqual({ federated: 1, exception: 0 });
    // The same technician's priority socket is not a second federated session.
    const priority = await connect(ann.token, '/ws/priority');
    await priority.next('technician.session.paused');
    const withPriority = await t.app.inject({
      method: 'GET',
      url: '/internal/sessions/_count',
      headers: { authorization: `Bearer ${ann.token}` },
    });
    expect(withPriority.json()).toEqual({ federated: 1, exception: 0 });
    priority.ws.close();
    await priority.closed;

    const close = await t.app.inject({
      method: 'GET',
      url: `/internal/users/${b64(ann.userId)}/sessions/_close`,
      headers: auth,
    });
    expect(close.json()).toEqual({ technicianId: ann.userId, action: 'closed' });
    expect((await socket.closed).code).toBe(4000);

    const remove = await t.app.inject({
      method: 'GET',
      url: `/internal/users/${b64(ann.userId)}/sessions/_remove`,
      headers: auth,
    });
    expect(remove.statusCode).toBe(200);
    const after = await t.app.inject({
      method: 'GET',
      url: '/internal/sessions/_summary',
      headers: auth,
    });
    const remaining = after.json<{ items: { technicianId: string }[] }>().items;
    expect(remaining.some((i) => i.technicianId === ann.userId)).toBe(false);
    const again = await t.app.inject({
      method: 'GET',
      url: `/internal/users/${b64(ann.userId)}/sessions/_remove`,
      headers: auth,
    });
    expect(again.statusCode).toBe(404);
    const denied = await t.app.inject({
      method: 'GET',
      url: `/internal/users/${b64(ben.userId)}/sessions/_close`,
      headers: { authorization: `Bearer ${ann.token}` },
    });
    expect(denied.statusCode).toBe(403);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the dispatch lane (PostgreSQL)', () => {
  it('a new job reaches a waiting technician while every connection of the shared pool is busy', async () => {
    const t = await startTestApp({ listen: true, poolSize: 2 });
    const release: (() => void)[] = [];
    try {
      const ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
      const socket = await openSocket(t.baseUrl, '/ws/federated', ann.token);
      socket.send('technician.session.activate');
      await socket.next('technician.session.waiting');
      const job = await createJobsRepository(t.database.db).enqueue({
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'acme',
        payload: {},
      });

      // Both connections of the shared pool are held (a burst of submissions and API calls).
      const held = [1, 2].map(
        () =>
          new Promise<void>((started) => {
            void t.database.db.transaction().execute(async (trx) => {
              await sql`select 1`.execute(trx);
              started();
              await new Promise<void>((resolve) => release.push(resolve));
            });
          }),
      );
      await Promise.all(held);

      // The job is announced; its claim goes through the lane and reaches Ann all the same.
      await t.app.hub.jobsAvailable(['federated']);
      expect((await socket.next('message.annotation.job')).data.jobId).toBe(job.id);
      socket.ws.close();
    } finally {
      for (const resolve of release) {
        resolve();
      }
      await t.close();
    }
  });
});
