import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DUPLICATE_SESSION_CLOSE_CODE,
  DUPLICATE_SESSION_MESSAGE,
} from '@loopdesk/contracts/realtime.ts';
import type { DatabaseHandle } from '../platform/db/database.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { startTwoNodes, type ServerProcess, type TwoNodes } from '../test/processes.ts';
import { openSocket, type TestSocket } from '../test/socket-client.ts';
import { tokenForRoles } from '../test/tokens.ts';

/**
 * Drill (issue 18 point 3): duplicate sessions under concurrency. A technician opens many
 * sockets at the same instant — a script gone wrong, a browser restoring fifty tabs. What must
 * still hold: exactly one socket keeps the session; every other one is closed with 1008 and the
 * spec's message; the one that stays works (it can resume and receive its state); and it stays
 * the only one, whatever the heartbeats find later.
 */

const SOCKETS = 50;
/**
 * Heartbeats every two seconds: a socket silent for two of them is cut, three missed ones make a
 * session stale. (At one second, a test client starved by a loaded machine answered too late.)
 */
const HEARTBEAT_SECONDS = '2';
/** Long enough for the attach grace (2 s) and two heartbeats to pass. */
const SETTLE_MS = 5_000;

interface Outcome {
  readonly open: TestSocket[];
  readonly closed: { code: number; reason: string }[];
}

/**
 * Opens `count` sockets of one technician at once, spread over the nodes, and waits until each
 * one has either started its session (`technician.session.paused`) or been closed.
 */
async function openAtOnce(baseUrls: readonly string[], path: string, token: string, count: number) {
  const sockets = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      openSocket(baseUrls[i % baseUrls.length] ?? '', path, token),
    ),
  );
  const started = await Promise.all(
    sockets.map((socket) =>
      Promise.race([
        socket.next('technician.session.paused', 15_000).then(() => 'started' as const),
        socket.closed.then(() => 'closed' as const),
      ]),
    ),
  );
  return { sockets, started };
}

/** After the dust settles (a few heartbeats): which sockets are still open, how the others closed. */
async function settle(sockets: readonly TestSocket[], ms: number): Promise<Outcome> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  const open = sockets.filter((s) => s.ws.readyState === s.ws.OPEN);
  const closed = await Promise.all(
    sockets.filter((s) => s.ws.readyState !== s.ws.OPEN).map((s) => s.closed),
  );
  return { open, closed };
}

/** What must hold: one survivor that still works, every other socket closed with 1008. */
async function expectOneSurvivor(outcome: Outcome, label: string): Promise<TestSocket> {
  const { open, closed } = outcome;
  const codes = new Map<string, number>();
  for (const { code, reason } of closed) {
    const key = `${code} ${reason.slice(0, 40)}`;
    codes.set(key, (codes.get(key) ?? 0) + 1);
  }
  console.info(
    `[drill] duplicate sessions, ${label}: ${SOCKETS} opened, ${open.length} open, ${closed.length} closed (${[...codes].map(([key, n]) => `${n} × ${key}…`).join('; ')})`,
  );
  expect(open).toHaveLength(1);
  expect(closed).toHaveLength(SOCKETS - 1);
  for (const { code, reason } of closed) {
    expect(code).toBe(DUPLICATE_SESSION_CLOSE_CODE);
    // The close reason is the spec's message, cut to the 123 bytes a close frame carries.
    expect(reason.length).toBeGreaterThan(0);
    expect(DUPLICATE_SESSION_MESSAGE.startsWith(reason)).toBe(true);
  }
  const [survivor] = open;
  if (!survivor) {
    throw new Error('no socket survived');
  }
  // The survivor holds the session: it resumes and is told it waits.
  survivor.send('technician.session.activate');
  await survivor.next('technician.session.waiting');
  return survivor;
}

describe('drill: 50 sockets of the same technician at the same instant, on one node', () => {
  let t: TestApp;
  let ann: string;

  beforeAll(async () => {
    t = await startTestApp({
      listen: true,
      env: { SOCKET_HEARTBEAT_SECONDS: HEARTBEAT_SECONDS, LEASE_SWEEP_SECONDS: '0.5' },
    });
    ann = (await tokenForRoles(t, 'ann@drill.test', ['annotator'])).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('exactly one survives; the other 49 are closed with 1008 and the spec message', async () => {
    // First, fifty sockets of Ann's federated screen open together.
    const { sockets } = await openAtOnce([t.baseUrl], '/ws/federated', ann, SOCKETS);
    // Then the attach grace and two heartbeats pass.
    const survivor = await expectOneSurvivor(await settle(sockets, SETTLE_MS), 'one node');
    // The database agrees: one session of Ann's, held by a socket.
    const rows = await t.database.db
      .selectFrom('technician_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.state', 's.connection_id'])
      .where('u.email', '=', 'ann@drill.test')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.state).toBe('waiting');
    expect(rows[0]?.connection_id).not.toBeNull();
    survivor.ws.close();
    await survivor.closed;
  });
});

describe('drill: a session whose heartbeats did not land, and a second socket', () => {
  let t: TestApp;
  let cleo: { token: string; userId: string };

  beforeAll(async () => {
    t = await startTestApp({
      listen: true,
      env: { SOCKET_HEARTBEAT_SECONDS: HEARTBEAT_SECONDS, LEASE_SWEEP_SECONDS: '0.5' },
    });
    cleo = await tokenForRoles(t, 'cleo@drill.test', ['annotator']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('the newcomer takes the stale session and the old socket is closed with 1008, not left open', async () => {
    // First, Cleo's socket starts its session.
    const old = await openSocket(t.baseUrl, '/ws/federated', cleo.token);
    await old.next('technician.session.paused');
    // Then its node's heartbeats do not land for a while (a paused process, a slow database):
    // the session looks stale to the cluster, though the socket is still open.
    let landing = true;
    const heartbeatsLost = (async () => {
      while (landing) {
        await t.database.db
          .updateTable('technician_sessions')
          .set({ last_seen_at: new Date(Date.now() - 3_600_000) })
          .where('user_id', '=', cleo.userId)
          .execute();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A second socket of Cleo's arrives meanwhile and takes the stale session.
    const newcomer = await openSocket(t.baseUrl, '/ws/federated', cleo.token);
    await Promise.race([newcomer.next('technician.session.paused'), newcomer.closed]);
    // The heartbeats land again.
    landing = false;
    await heartbeatsLost;
    // After a few heartbeats one of the two is left, and the other was closed with 1008.
    const { open, closed } = await settle([old, newcomer], SETTLE_MS);
    console.info(
      `[drill] stale session: ${open.length} open (${open[0] === old ? 'the old one' : 'the newcomer'}), closed with ${closed.map((c) => c.code).join(', ') || 'none'}`,
    );
    expect(open).toHaveLength(1);
    expect(closed.map((c) => c.code)).toEqual([DUPLICATE_SESSION_CLOSE_CODE]);
    const [survivor] = open;
    survivor?.send('technician.session.activate');
    await survivor?.next('technician.session.waiting');
    survivor?.ws.close();
    await survivor?.closed;
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!adminUrl || !redisUrl)(
  'drill: 50 sockets of the same technician at the same instant, across two nodes',
  () => {
    let cluster: TwoNodes | undefined;
    let secret: string;
    let handle: DatabaseHandle;
    let nodes: ServerProcess[] = [];

    beforeAll(async () => {
      cluster = await startTwoNodes({
        adminUrl: adminUrl ?? '',
        redisUrl: redisUrl ?? '',
        prefix: 'loopdesk_drill',
        env: { SOCKET_HEARTBEAT_SECONDS: HEARTBEAT_SECONDS },
      });
      ({ secret, handle } = cluster);
      nodes = [cluster.nodeA, cluster.nodeB];
    }, 120_000);
    afterAll(async () => {
      await cluster?.close();
    });

    it('exactly one survives across both nodes; the other 49 are closed with 1008', async () => {
      const { token } = await tokenForRoles(
        {
          database: handle,
          config: { sessionSecret: secret, env: { ACCESS_TOKEN_TTL_SECONDS: 3600 } },
        },
        'ben@drill.test',
        ['annotator'],
      );
      // Fifty sockets of Ben's, half to node A and half to node B, at the same instant.
      const { sockets } = await openAtOnce(
        nodes.map((node) => node.baseUrl),
        '/ws/federated',
        token,
        SOCKETS,
      );
      const survivor = await expectOneSurvivor(await settle(sockets, SETTLE_MS), 'two nodes').catch(
        (error: unknown) => {
          // What the nodes logged (warnings and errors) says why.
          console.error(nodes.map((node) => node.output()).join('\n'));
          throw error;
        },
      );
      survivor.ws.close();
      await survivor.closed;
    });
  },
);
