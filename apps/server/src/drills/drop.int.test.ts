import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCEPTION_EVENTS } from '@loopdesk/contracts/exceptions.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { annotationData, openSocket, type TestSocket } from '../test/socket-client.ts';
import { apiKeyFor, tokenForRoles } from '../test/tokens.ts';

/**
 * Drill (issue 18 point 2): a socket dies in the middle of its work. A technician's socket is
 * closed while it holds a job — a laptop lid shut, a tab killed — and, separately, goes silent
 * without closing (a frozen browser, a network that drops packets), so that only the server's
 * heartbeat can notice. The same happens to a reviewer holding conversations at the exception
 * desk. What must still hold: the job is offered to another technician within a second of the
 * close and within the heartbeat window of the stall; the reviewer's conversations go back to the
 * queue and reach the next reviewer in the order they were handed over.
 *
 * The bounds are the system's contract (a close is seen at once; a silent socket is cut after two
 * heartbeats without a frame, checked once a heartbeat) stated with room for a loaded machine;
 * the measured figures are printed.
 */

/** Heartbeats every second: a silent socket is cut after 2 s, checked every second. */
const HEARTBEAT_MS = 1_000;
/** The contract for a closed socket: its job is offered again within a second. */
const CLOSE_BOUND_MS = 1_000;
/**
 * The heartbeat window: two silent heartbeats and the tick that sees them, with two seconds of room
 * for a loaded machine to return the work (2.1–2.9 s were measured at load 25).
 */
const STALL_BOUND_MS = 3 * HEARTBEAT_MS + 2_000;

describe('drill: a socket dies mid-job', () => {
  let t: TestApp;
  let key: string;
  const open: TestSocket[] = [];
  const figures: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      listen: true,
      env: { SOCKET_HEARTBEAT_SECONDS: String(HEARTBEAT_MS / 1000), LEASE_SWEEP_SECONDS: '0.5' },
    });
    key = await apiKeyFor(t, 'drop-drill');
  });
  afterAll(async () => {
    console.info(`[drill] drop: ${figures.join('; ')}`);
    for (const socket of open) {
      socket.ws.close();
    }
    await t.close();
  });

  let calls = 0;
  const api = (method: 'POST' | 'PUT', path: string, body: unknown) =>
    t.app.inject({
      method,
      url: path,
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': `drop-${(calls += 1)}` },
      payload: body as Record<string, unknown>,
    });

  /** A technician (or reviewer) whose socket of this kind is open and waiting for work. */
  async function resume(
    email: string,
    role: 'annotator' | 'medical',
    path: '/ws/federated' | '/ws/exceptions',
    answerPings = true,
  ): Promise<TestSocket> {
    const { token } = await tokenForRoles(t, email, [role]);
    const socket = await openSocket(t.baseUrl, path, token, { answerPings });
    open.push(socket);
    await socket.next('technician.session.paused');
    socket.send('technician.session.activate');
    await socket.next('technician.session.waiting');
    return socket;
  }

  async function enqueue(text: string): Promise<string> {
    const response = await api('POST', '/api/v1/jobs', {
      queue: 'federated',
      type: 'message.annotation.job',
      tenant: 'acme',
      data: { lastTurn: { content: text } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  }

  /** Milliseconds from `since` until `socket` is offered the job. */
  async function offeredAfter(socket: TestSocket, jobId: string, since: number, timeoutMs: number) {
    const offer = await socket.next('message.annotation.job', timeoutMs);
    expect(offer.data.jobId).toBe(jobId);
    return performance.now() - since;
  }

  /** The technician answers the job and pauses. */
  async function answer(socket: TestSocket, jobId: string) {
    socket.send('message.annotation', annotationData(jobId));
    await socket.next('technician.session.waiting');
    socket.send('technician.session.pause');
    await socket.next('technician.session.paused');
    const done = await t.database.db
      .selectFrom('outbox_events')
      .select('type')
      .where('job_id', '=', jobId)
      .where('type', '=', 'job.completed')
      .execute();
    expect(done).toHaveLength(1);
  }

  it('a technician’s socket closes while holding a job: another technician is offered it within a second', async () => {
    // Ann waits first, so the job is hers; Ben waits behind her.
    const ann = await resume('ann@drop.test', 'annotator', '/ws/federated');
    const ben = await resume('ben@drop.test', 'annotator', '/ws/federated');
    const jobId = await enqueue('My chest hurts');
    expect((await ann.next('message.annotation.job')).data.jobId).toBe(jobId);
    // Ann's socket closes with the job in hand.
    const closedAt = performance.now();
    ann.ws.close();
    const ms = await offeredAfter(ben, jobId, closedAt, 10_000);
    figures.push(`technician closed → offered again in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(CLOSE_BOUND_MS);
    // The job is answered once, by Ben.
    await answer(ben, jobId);
  });

  it('a technician’s socket goes silent while holding a job: the heartbeat cuts it and another technician is offered it within the heartbeat window', async () => {
    // Cleo's socket stays open but answers nothing, not even the heartbeat's pings.
    const cleo = await resume('cleo@drop.test', 'annotator', '/ws/federated', false);
    const silentSince = performance.now();
    const dan = await resume('dan@drop.test', 'annotator', '/ws/federated');
    const jobId = await enqueue('I feel dizzy');
    expect((await cleo.next('message.annotation.job')).data.jobId).toBe(jobId);
    const ms = await offeredAfter(dan, jobId, silentSince, 15_000);
    figures.push(
      `technician silent → offered again ${ms.toFixed(0)} ms after its last frame (window ${STALL_BOUND_MS} ms)`,
    );
    expect(ms).toBeLessThan(STALL_BOUND_MS);
    // The server cut the silent socket itself.
    expect((await cleo.closed).code).not.toBe(1000);
    // The job is answered once, by Dan.
    await answer(dan, jobId);
  });

  let counter = 0;
  /** A conversation handed over to the exception desk by the assistant; returns its id. */
  async function handedOver(): Promise<string> {
    counter += 1;
    const id = `drop-${counter}`;
    const created = await api('PUT', `/api/v1/conversations/${id}`, {
      tenant: 'acme',
      botConversationId: `bot-${id}`,
      consumer: { id: `patient-${id}`, name: { given: 'Maya', family: `Okafor ${counter}` } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const handover = await api('POST', `/api/v1/conversations/${id}/handover`, {
      reason: 'the patient asked for a human',
    });
    expect(handover.statusCode, handover.body).toBe(200);
    return id;
  }

  const added = (socket: TestSocket) =>
    socket.received
      .filter((e) => e.type === EXCEPTION_EVENTS.added)
      .map((e) => (e.data.conversation as { conversationId: string }).conversationId);

  /** Waits until `socket` holds these conversations, in this order; the milliseconds since. */
  async function holdsAfter(socket: TestSocket, ids: string[], since: number, timeoutMs: number) {
    const deadline = performance.now() + timeoutMs;
    while (added(socket).length < ids.length && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ms = performance.now() - since;
    expect(added(socket)).toEqual(ids);
    return ms;
  }

  async function reviewerDrops(silent: boolean) {
    const tag = silent ? 'silent' : 'closed';
    // Meera holds three conversations, handed over one after the other.
    const meera = await resume(`meera-${tag}@drop.test`, 'medical', '/ws/exceptions', !silent);
    const silentSince = performance.now();
    const ids = [await handedOver(), await handedOver(), await handedOver()];
    await holdsAfter(meera, ids, 0, 5_000);
    // Omar resumes with nothing to take.
    const omar = await resume(`omar-${tag}@drop.test`, 'medical', '/ws/exceptions');
    expect(added(omar)).toEqual([]);
    let since = silentSince;
    if (!silent) {
      since = performance.now();
      meera.ws.close();
    }
    const ms = await holdsAfter(omar, ids, since, silent ? 15_000 : 10_000);
    figures.push(
      silent
        ? `reviewer silent → 3 conversations with the next reviewer, in order, ${ms.toFixed(0)} ms after her last frame`
        : `reviewer closed → 3 conversations with the next reviewer, in order, in ${ms.toFixed(0)} ms`,
    );
    expect(ms).toBeLessThan(silent ? STALL_BOUND_MS : CLOSE_BOUND_MS);
    await meera.closed;
    omar.send('technician.session.pause');
    await omar.next('technician.session.paused');
    // Omar's pause put them back in the queue: the desk is cleared for the next story.
    const db = t.database.db;
    await sql`delete from outbox_events`.execute(db);
    await sql`delete from jobs`.execute(db);
    await sql`delete from conversation_messages`.execute(db);
    await sql`delete from conversations`.execute(db);
  }

  it('a reviewer’s socket closes while holding conversations: they reach the next reviewer in order within a second', async () => {
    await reviewerDrops(false);
  });

  it('a reviewer’s socket goes silent while holding conversations: they reach the next reviewer in order within the heartbeat window', async () => {
    await reviewerDrops(true);
  });
});
