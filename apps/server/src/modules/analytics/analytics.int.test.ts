import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { createEmbedSigner } from './signing.ts';
import { at, audit, insertConversation, insertJob, T0 } from './test-history.ts';

const J = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const RANGE = { from: T0.toISOString(), to: at(7200).toISOString() };

describe('analytics dashboard (issue 16)', () => {
  let t: TestApp;
  let lead: { token: string; userId: string };
  let medical: { token: string; userId: string };
  let annotator: { token: string; userId: string };
  let ann: string;
  let bob: string;

  /** Opens the built-in page as this user: the address, then its view token. */
  async function open(token: string) {
    const address = await t.app.inject({
      url: '/internal/analytics/dashboard',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(address.statusCode).toBe(200);
    const url = new URL(address.json<{ url: string }>().url, 'http://x');
    const opened = await t.app.inject({
      url: `/internal/analytics/embed/_open?token=${url.searchParams.get('token') ?? ''}`,
    });
    expect(opened.statusCode).toBe(200);
    return opened.json<{ viewToken: string; people: boolean }>();
  }

  async function figures(viewToken: string, query: Record<string, string> = RANGE) {
    return t.app.inject({
      url: `/internal/analytics/embed/figures?${new URLSearchParams(query).toString()}`,
      headers: { 'x-analytics-view': viewToken },
    });
  }

  beforeAll(async () => {
    t = await startTestApp();
    lead = await tokenForRoles(t, 'lead@example.test', ['medical', 'admin']);
    medical = await tokenForRoles(t, 'medic@example.test', ['medical']);
    annotator = await tokenForRoles(t, 'annie@example.test', ['annotator']);
    ann = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).userId;
    bob = (await tokenForRoles(t, 'bob@example.test', ['annotator'])).userId;
    const db = t.database.db;
    const base = { type: 'message.annotation', queue: 'federated', tenant: 'acme' } as const;
    await insertJob(db, {
      ...base,
      id: J(1),
      created: 0,
      state: 'completed',
      deliveries: [{ at: 10, user: ann }],
      completed: { at: 70, user: ann, type: 'message.annotation' },
    });
    await insertJob(db, {
      ...base,
      id: J(2),
      created: 60,
      state: 'completed',
      deliveries: [
        { at: 80, user: ann },
        { at: 130, user: bob },
      ],
      events: [{ type: 'job.requeued', at: 100 }],
      completed: { at: 190, user: bob, type: 'message.annotation.exception' },
    });
    await insertJob(db, {
      ...base,
      id: J(3),
      created: 120,
      state: 'completed',
      deliveries: [{ at: 150, user: ann }],
      completed: { at: 180, user: ann, type: 'message.annotation' },
    });
    await insertJob(db, {
      ...base,
      id: J(4),
      created: 3610,
      state: 'dead',
      events: [{ type: 'job.dead', at: 4000 }],
    });
    await insertJob(db, {
      id: J(5),
      type: 'hpi.prioritised',
      queue: 'priority',
      tenant: 'beta',
      created: 200,
      state: 'cancelled',
      events: [{ type: 'job.cancelled', at: 300, data: { reason: 'test' } }],
    });
    await insertJob(db, { ...base, id: J(6), created: 50, state: 'queued' });

    await insertConversation(db, 'c1', 'acme');
    await insertConversation(db, 'c2', 'acme');
    const desk = (action: string, cid: string, s: number, details: object = {}) =>
      audit(db, `conversation.${action}`, 'conversation', cid, s, null, details);
    await desk('handover', 'c1', 0, { queue: 'exceptions', reason: 'patient asked for a human' });
    await desk('allocated', 'c1', 30);
    await desk('reply', 'c1', 90);
    await desk('handback', 'c1', 300);
    await desk('handover', 'c1', 600, { queue: 'exceptions' });
    await desk('allocated', 'c1', 620);
    await desk('end', 'c1', 900);
    await desk('handover', 'c2', 1000, { queue: 'exceptions' });

    const note = { pipeline: 'p1', step: 's1' };
    await audit(db, 'async-jobs.task.discard', 'async_task', 'a1', 100, ann, {
      ...note,
      note: 'SECRET NOTE TEXT',
    });
    await audit(db, 'async-jobs.task.discard', 'async_task', 'a2', 200, ann, {
      ...note,
      note: ' ',
    });
    // Views read the rollups as the background refresh left them: bring them up to date from
    // scratch (the start-up refresh ran before this history existed).
    await sql`delete from analytics_refresh`.execute(db);
    await t.app.analytics.rollups.refresh();
  });
  afterAll(async () => {
    await t.close();
  });

  it('computes every figure of a known history exactly', async () => {
    const { viewToken, people } = await open(lead.token);
    expect(people).toBe(true);
    const response = await figures(viewToken);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('SECRET NOTE TEXT');
    expect(response.body).not.toContain('patient asked');
    const f = response.json<AnalyticsFigures>();

    expect(f.options).toMatchObject({
      types: ['hpi.prioritised', 'message.annotation'],
      tenants: ['acme', 'beta'],
    });
    expect(f.queues.hourly).toEqual([
      { hour: T0.toISOString(), arrivals: 5, completions: 3 },
      { hour: at(3600).toISOString(), arrivals: 1, completions: 0 },
    ]);
    expect(f.queues.depth).toEqual([
      { hour: T0.toISOString(), queue: 'federated', open: 1 },
      { hour: T0.toISOString(), queue: 'priority', open: 0 },
      { hour: at(3600).toISOString(), queue: 'federated', open: 1 },
    ]);
    expect(f.queues.oldest).toEqual([
      expect.objectContaining({
        queue: 'federated',
        waiting: 1,
        oldestQueuedAt: at(50).toISOString(),
      }),
    ]);
    // wait [10, 20, 30], handle [60, 60, 30], end to end [70, 130, 60] (seconds).
    expect(f.times).toEqual([
      {
        type: 'hpi.prioritised',
        wait: { count: 0, p50: null, p90: null, p99: null },
        handle: { count: 0, p50: null, p90: null, p99: null },
        total: { count: 0, p50: null, p90: null, p99: null },
      },
      {
        type: 'message.annotation',
        wait: { count: 3, p50: 20, p90: 28, p99: 29.8 },
        handle: { count: 3, p50: 60, p90: 60, p99: 60 },
        total: { count: 3, p50: 70, p90: 118, p99: 128.8 },
      },
    ]);
    // First reply [90]; with a human [270, 280]; one handback, one end, one still open.
    expect(f.desk).toEqual({
      handovers: 3,
      firstReply: { count: 1, p50: 90, p90: 90, p99: 90 },
      withHuman: { count: 2, p50: 275, p90: 279, p99: 279.9 },
      handbacks: 1,
      ends: 1,
      open: 1,
    });
    expect(f.outcomes).toEqual([
      { type: 'hpi.prioritised', completed: 0, exceptions: 0, cancelled: 1, dead: 0, requeues: 0 },
      {
        type: 'message.annotation',
        completed: 3,
        exceptions: 1,
        cancelled: 0,
        dead: 1,
        requeues: 1,
      },
    ]);
    expect(f.discards).toEqual([{ type: 'p1/s1', discards: 2, withNotes: 1 }]);
    expect(f.people).toEqual([
      {
        userId: ann,
        name: 'ann@example.test',
        jobs: 2,
        activeHours: 1,
        jobsPerHour: 2,
        handle: { count: 2, p50: 45, p90: 57, p99: 59.7 },
        exceptions: 0,
        exceptionRate: 0,
      },
      {
        userId: bob,
        name: 'bob@example.test',
        jobs: 1,
        activeHours: 1,
        jobsPerHour: 1,
        handle: { count: 1, p50: 60, p90: 60, p99: 60 },
        exceptions: 1,
        exceptionRate: 1,
      },
    ]);

    // Every view is audited, with its filters.
    const audits = await sql<{ action: string; actor_id: string }>`
      select action, actor_id from audit_events where action like 'analytics.%' order by id`.execute(
      t.database.db,
    );
    expect(audits.rows.map((r) => r.action)).toEqual([
      'analytics.dashboard.address',
      'analytics.embed.open',
      'analytics.view',
    ]);
  });

  it('gives long ranges percentiles from the day histograms, within 1% of the exact ones', async () => {
    const { viewToken } = await open(medical.token);
    // Whole UTC days around T0: the histogram path (ranges of two whole days or more).
    const long = (
      await figures(viewToken, { from: '2026-01-01T00:00:00Z', to: '2026-01-09T00:00:00Z' })
    ).json<AnalyticsFigures>();
    const exact = (await figures(viewToken)).json<AnalyticsFigures>();
    const annotation = (f: AnalyticsFigures) =>
      f.times.find((x) => x.type === 'message.annotation');
    const a = annotation(long);
    const e = annotation(exact);
    for (const metric of ['wait', 'handle', 'total'] as const) {
      expect(a?.[metric].count).toBe(e?.[metric].count);
      for (const p of ['p50', 'p90', 'p99'] as const) {
        const want = e?.[metric][p] ?? 0;
        const got = a?.[metric][p] ?? 0;
        expect(Math.abs(got - want), `${metric} ${p}: ${got} against ${want}`).toBeLessThanOrEqual(
          want * 0.01,
        );
      }
    }
    // The people too, for a lead: counts exact, handle within 1%.
    const asLead = await open(lead.token);
    const longPeople =
      (
        await figures(asLead.viewToken, {
          from: '2026-01-01T00:00:00Z',
          to: '2026-01-09T00:00:00Z',
        })
      ).json<AnalyticsFigures>().people ?? [];
    const exactPeople = (await figures(asLead.viewToken)).json<AnalyticsFigures>().people ?? [];
    expect(longPeople.map(({ handle: _h, ...rest }) => rest)).toEqual(
      exactPeople.map(({ handle: _h, ...rest }) => rest),
    );
    for (const [i, person] of longPeople.entries()) {
      const want = exactPeople[i]?.handle.p50 ?? 0;
      expect(Math.abs((person.handle.p50 ?? 0) - want)).toBeLessThanOrEqual(want * 0.01);
    }
    // Partial hours at the edges (ann answers twice in T0's hour, bob once): their jobs count
    // once each and their hour once per technician, as on the exact path of a short range.
    const peopleOf = async (from: Date, to: Date) =>
      (
        (
          await figures(asLead.viewToken, { from: from.toISOString(), to: to.toISOString() })
        ).json<AnalyticsFigures>().people ?? []
      ).map(({ handle: _h, ...rest }) => rest);
    const start = new Date('2026-01-01T00:00:00Z');
    const end = new Date('2026-01-09T00:00:00Z');
    const tail = await peopleOf(start, at(200));
    expect(tail.map((p) => [p.name, p.jobs, p.activeHours])).toEqual([
      ['ann@example.test', 2, 1],
      ['bob@example.test', 1, 1],
    ]);
    expect(tail).toEqual(await peopleOf(T0, at(200)));
    expect(await peopleOf(at(100), end)).toEqual(await peopleOf(at(100), at(7200)));
    // A partial day at an edge still counts its jobs exactly once.
    const edges = (
      await figures(viewToken, { from: at(-3600).toISOString(), to: '2026-01-09T00:00:00Z' })
    ).json<AnalyticsFigures>();
    expect(annotation(edges)?.wait.count).toBe(3);
  });

  it('filters by type, queue and tenant, and keeps the people for leads only', async () => {
    const { viewToken, people } = await open(medical.token);
    expect(people).toBe(false);
    const f = (await figures(viewToken, { ...RANGE, tenant: 'beta' })).json<AnalyticsFigures>();
    expect(f.people).toBeNull();
    expect(f.outcomes.map((o) => o.type)).toEqual(['hpi.prioritised']);
    expect(f.queues.hourly).toEqual([{ hour: T0.toISOString(), arrivals: 1, completions: 0 }]);
    expect(f.desk.handovers).toBe(0);
    const byType = (
      await figures(viewToken, { ...RANGE, type: 'message.annotation', queue: 'federated' })
    ).json<AnalyticsFigures>();
    expect(byType.times.map((x) => x.type)).toEqual(['message.annotation']);
    expect(byType.queues.hourly[0]).toEqual({
      hour: T0.toISOString(),
      arrivals: 4,
      completions: 3,
    });
  });

  it('reads the outcomes of whole days from their day rollup, equal to the exact figures', async () => {
    const { viewToken } = await open(medical.token);
    const outcomesOf = async (query: Record<string, string>) =>
      (await figures(viewToken, query)).json<AnalyticsFigures>().outcomes;
    // RANGE holds no whole day: its outcomes are counted from the jobs themselves.
    const exact = await outcomesOf(RANGE);
    const week = { from: '2026-01-01T00:00:00Z', to: '2026-01-09T00:00:00Z' };
    const rollup = await sql<{ jobs: number }>`
      select sum(jobs)::int as jobs from analytics_outcomes
      where day = timestamptz '2026-01-05T00:00:00Z'`.execute(t.database.db);
    expect(rollup.rows[0]?.jobs).toBe(6);
    expect(await outcomesOf(week)).toEqual(exact);
    expect(await outcomesOf({ ...week, tenant: 'beta' })).toEqual(
      exact.filter((o) => o.type === 'hpi.prioritised'),
    );
    // A partial day at each edge: Jan 4 12:00 → Jan 5 11:00 holds no whole day (J4 arrives later).
    expect(await outcomesOf({ from: '2026-01-04T12:00:00Z', to: at(3600).toISOString() })).toEqual(
      exact.map((o) => (o.type === 'message.annotation' ? { ...o, dead: 0 } : o)),
    );
    // Whole days from the rollup and partial ones from the jobs, each job counted once: a job
    // dead on Jan 6 and one cancelled on Jan 7, then a refresh from scratch.
    const late = { type: 'message.annotation', queue: 'federated', tenant: 'acme' } as const;
    await insertJob(t.database.db, {
      ...late,
      id: 'b0000000-0000-4000-8000-000000000016',
      created: 86_400,
      state: 'dead',
      events: [{ type: 'job.dead', at: 86_500 }],
    });
    await insertJob(t.database.db, {
      ...late,
      id: 'b0000000-0000-4000-8000-000000000017',
      created: 2 * 86_400,
      state: 'cancelled',
      events: [{ type: 'job.cancelled', at: 2 * 86_400 + 60 }],
    });
    await sql`delete from analytics_refresh`.execute(t.database.db);
    await t.app.analytics.rollups.refresh();
    const hpi = exact.filter((o) => o.type === 'hpi.prioritised');
    const to = at(2 * 86_400 + 60).toISOString();
    // Jan 5 and 6 whole, Jan 7 to 10:01 partial.
    expect(await outcomesOf({ from: '2026-01-05T00:00:00Z', to })).toEqual([
      ...hpi,
      {
        type: 'message.annotation',
        completed: 3,
        exceptions: 1,
        cancelled: 1,
        dead: 2,
        requeues: 1,
      },
    ]);
    // Jan 5 from 10:00:30 partial (J1 arrived at 10:00), Jan 6 whole, Jan 7 partial.
    expect(await outcomesOf({ from: at(30).toISOString(), to })).toEqual([
      ...hpi,
      {
        type: 'message.annotation',
        completed: 2,
        exceptions: 1,
        cancelled: 1,
        dead: 2,
        requeues: 1,
      },
    ]);
  });

  it('refuses bad input with a clear 400', async () => {
    const { viewToken } = await open(medical.token);
    const cases: [Record<string, string>, RegExp][] = [
      [{ from: RANGE.to, to: RANGE.from }, /must be after from/],
      [{ from: '2020-01-01T00:00:00Z', to: '2022-01-01T00:00:00Z' }, /at most 366 days/],
      [{ from: 'yesterday', to: RANGE.to }, /ISO 8601/],
      [{ ...RANGE, type: 'no.such.type' }, /Unknown job type 'no.such.type': choose one of/],
      [{ ...RANGE, tenant: 'nobody' }, /Unknown tenant 'nobody'/],
      [{ ...RANGE, queue: 'nowhere' }, /Unknown queue 'nowhere'/],
      // Impossible dates and empty ranges.
      [{ from: '2026-02-30T00:00:00Z', to: RANGE.to }, /ISO 8601/],
      [{ from: RANGE.from, to: '2026-01-05T25:00:00Z' }, /ISO 8601/],
      [{ from: RANGE.from, to: RANGE.from }, /must be after from/],
      [{ to: RANGE.to }, /from/],
    ];
    for (const [query, message] of cases) {
      const response = await figures(viewToken, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(response.json()), JSON.stringify(query)).toMatch(message);
      // Nothing leaked: no figures come with a refusal.
      expect(response.body).not.toMatch(/"times"|"agreement"|"people"/);
    }
    // A refused read is audited as such, and no view is recorded for it.
    const views = await sql<{ n: number }>`
      select count(*)::int as n from audit_events where action = 'analytics.view'
        and details->'filters'->>'tenant' = 'nobody'`.execute(t.database.db);
    expect(views.rows[0]?.n).toBe(0);
  });

  it('refuses an expired, tampered or misused address, and a user without the privilege', async () => {
    const signer = createEmbedSigner(t.config.sessionSecret);
    const openWith = (token: string) =>
      t.app.inject({ url: `/internal/analytics/embed/_open?token=${encodeURIComponent(token)}` });
    const now = Math.floor(Date.now() / 1000);

    const expired = await openWith(
      signer.sign({ aud: 'embed', sub: medical.userId, exp: now - 1 }),
    );
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toMatch(
      /^The analytics address expired at .*open the dashboard again/,
    );

    const good = signer.sign({ aud: 'embed', sub: medical.userId, exp: now + 60 });
    const [body = '', mac = ''] = good.split('.');
    const forged = Buffer.from(
      JSON.stringify({ aud: 'embed', sub: lead.userId, exp: now + 60 }),
    ).toString('base64url');
    for (const token of [`${forged}.${mac}`, `${body}.${mac.slice(0, -2)}AA`]) {
      const tampered = await openWith(token);
      expect(tampered.statusCode).toBe(401);
      expect(tampered.json().message).toMatch(/has been altered/);
    }
    expect((await openWith('nonsense')).json().message).toMatch(/malformed/);

    // A view token does not open the page, and an address does not read figures.
    const asView = await openWith(signer.sign({ aud: 'view', sub: medical.userId, exp: now + 60 }));
    expect(asView.statusCode).toBe(401);
    expect((await figures(good)).statusCode).toBe(401);
    expect((await figures('')).statusCode).toBe(400);

    // A forged or expired view token reads nothing.
    const view = signer.sign({ aud: 'view', sub: medical.userId, exp: now + 60 });
    const [viewBody = '', viewMac = ''] = view.split('.');
    const asLead = Buffer.from(
      JSON.stringify({ aud: 'view', sub: lead.userId, exp: now + 60 }),
    ).toString('base64url');
    for (const token of [`${asLead}.${viewMac}`, `${viewBody}.${viewMac.slice(0, -2)}AA`]) {
      const forgedView = await figures(token);
      expect(forgedView.statusCode).toBe(401);
      expect(forgedView.json().message).toMatch(/analytics view token has been altered/);
      expect(forgedView.body).not.toMatch(/"times"|"people"/);
    }
    const expiredView = await figures(
      signer.sign({ aud: 'view', sub: medical.userId, exp: now - 1 }),
    );
    expect(expiredView.statusCode).toBe(401);
    expect(expiredView.json().message).toMatch(/analytics view token expired at/);
    // A token signed with another key (another deployment's) is a forgery too.
    const other = createEmbedSigner('another secret that is long enough for a key');
    const foreign = await openWith(
      other.sign({ aud: 'embed', sub: medical.userId, exp: now + 60 }),
    );
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json().message).toMatch(/has been altered/);

    // Without the privilege: the address is refused, and so is a signed token of theirs.
    const refused = await t.app.inject({
      url: '/internal/analytics/dashboard',
      headers: { authorization: `Bearer ${annotator.token}` },
    });
    expect(refused.statusCode).toBe(403);
    const theirs = await openWith(
      signer.sign({ aud: 'embed', sub: annotator.userId, exp: now + 60 }),
    );
    expect(theirs.statusCode).toBe(403);
    const denied = await sql<{ n: number }>`
      select count(*)::int as n from audit_events where action = 'request.refused'
        and details->>'url' like '/internal/analytics/%'`.execute(t.database.db);
    expect(denied.rows[0]?.n).toBeGreaterThanOrEqual(6);
  });
});

describe('analytics dashboard with Metabase (issue 16)', () => {
  let t: TestApp;
  const secret = 'm'.repeat(64);
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ANALYTICS_EMBED: 'metabase',
        METABASE_SITE_URL: 'https://metabase.example.test/',
        METABASE_SECRET_KEY: secret,
        METABASE_DASHBOARD_ID: '7',
        METABASE_PARAMS: '{"tenant":"acme"}',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a signed Metabase embed address', async () => {
    const { token } = await tokenForRoles(t, 'medic@example.test', ['medical']);
    const response = await t.app.inject({
      url: '/internal/analytics/dashboard',
      headers: { authorization: `Bearer ${token}` },
    });
    const { url } = response.json<{ url: string }>();
    const match =
      /^https:\/\/metabase\.example\.test\/embed\/dashboard\/([^.]+)\.([^.]+)\.([^#]+)#/.exec(url);
    expect(match).not.toBeNull();
    const [, header = '', payload = '', signature = ''] = match ?? [];
    const expected = createHmac('sha256', secret)
      .update(`${header}.${payload}`)
      .digest('base64url');
    expect(signature).toBe(expected);
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ resource: { dashboard: 7 }, params: { tenant: 'acme' } });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
  });
});
