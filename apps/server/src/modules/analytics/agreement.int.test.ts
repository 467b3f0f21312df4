import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { annotationData, openSocket, type TestSocket } from '../../test/socket-client.ts';
import { compareAnswers, kappa, scores } from './agreement.ts';
import { at, T0 } from './test-history.ts';

type Tech = { token: string; userId: string };

describe('agreement arithmetic (issue 16)', () => {
  it("computes Cohen's kappa as the textbook does", () => {
    // 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15: pₒ 0.7, pₑ 0.5·0.6 + 0.5·0.4 = 0.5.
    const items = [
      ...Array.from({ length: 20 }, () => ['yes', 'yes'] as const),
      ...Array.from({ length: 5 }, () => ['yes', 'no'] as const),
      ...Array.from({ length: 10 }, () => ['no', 'yes'] as const),
      ...Array.from({ length: 15 }, () => ['no', 'no'] as const),
    ];
    expect(kappa(items)).toBe(0.4);
    expect(kappa([])).toBeNull();
    // Everyone says the same single category: pₑ = 1, kappa undefined.
    expect(kappa([['a', 'a']])).toBeNull();
    expect(scores([])).toEqual({ samples: 0, f1: null, items: 0, kappa: null });
  });

  it('compares spans by start, end and category, and categories by boundary', () => {
    const c = compareAnswers(
      {
        type: 'message.annotation',
        data: {
          action: 'answer',
          entities: [
            { start: 0, end: 5, extract: 'x', category: 'symptom' },
            { start: 10, end: 15, extract: 'x', category: 'drug' },
          ],
        },
      },
      {
        type: 'message.annotation',
        data: {
          action: 'answer',
          entities: [
            { start: 0, end: 5, extract: 'x', category: 'symptom' },
            { start: 10, end: 15, extract: 'x', category: 'symptom' },
            { start: 20, end: 22, extract: 'x', category: 'drug' },
          ],
        },
      },
    );
    expect(c).toEqual({
      firstSpans: 2,
      secondSpans: 3,
      matchedSpans: 1,
      categoryPairs: [
        ['symptom', 'symptom'],
        ['drug', 'symptom'],
        ['', 'drug'],
      ],
      outcomeDiffers: false,
    });
    // Nothing of the text is kept.
    expect(JSON.stringify(c)).not.toContain('"x"');
  });
});

/** Waits until `read` gives a value `ok` accepts (or the time is up) and returns it. */
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

describe('agreement sampling in the federated engine (issue 16)', () => {
  let t: TestApp;
  let ann: Tech;
  let ben: Tech;
  let cat: Tech;
  const open: TestSocket[] = [];

  beforeAll(async () => {
    // Every federated job is sampled; a sample is delivered at most twice.
    t = await startTestApp({
      listen: true,
      env: { AGREEMENT_SAMPLE_SHARE: '1', AGREEMENT_MAX_ATTEMPTS: '2' },
    });
    ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    ben = await tokenForRoles(t, 'ben@example.test', ['annotator']);
    cat = await tokenForRoles(t, 'cat@example.test', ['annotator']);
  });
  afterAll(async () => {
    for (const socket of open) {
      socket.ws.close();
    }
    await t.close();
  });

  async function waiting(token: string): Promise<TestSocket> {
    const socket = await openSocket(t.baseUrl, '/ws/federated', token);
    open.push(socket);
    await socket.next('technician.session.paused');
    socket.send('technician.session.activate');
    await socket.next('technician.session.waiting');
    return socket;
  }
  const db = () => t.database.db;
  const sampleOf = (jobId: string) =>
    until(
      () =>
        db()
          .selectFrom('jobs')
          .select(['id', 'state', 'assignee_id', 'attempts', 'agreement_exclude', 'payload'])
          .where('agreement_of', '=', jobId)
          .executeTakeFirst(),
      (row) => row !== undefined,
    );
  const outbox = async (jobId: string) =>
    (
      await db()
        .selectFrom('outbox_events')
        .select('type')
        .where('job_id', '=', jobId)
        .orderBy('cursor')
        .execute()
    ).map((row) => row.type);

  it('sends a sampled job, unseen, to a second technician, and the assistant hears of it once', async () => {
    const annSocket = await waiting(ann.token);
    const job = await t.app.hub.add({
      queue: 'federated',
      type: 'message.annotation.job',
      tenant: 'acme',
      payload: { conversationId: 'c-1', n: 1 },
    });
    expect(job.assignee_id).toBe(ann.userId);
    await annSocket.next('message.annotation.job');
    annSocket.send('message.annotation', annotationData(job.id));

    // The sample waits: its only waiting technician is the one who answered first.
    const queued = await sampleOf(job.id);
    expect(queued).toMatchObject({ state: 'queued', agreement_exclude: ann.userId });
    await annSocket.next('technician.session.waiting');
    expect((await sampleOf(job.id))?.state).toBe('queued');

    // A second technician resumes: the sample is theirs, as any job would be.
    const benSocket = await waiting(ben.token);
    const frame = await benSocket.next('message.annotation.job');
    expect(frame.data).toEqual({
      conversationId: 'c-1',
      n: 1,
      jobId: queued?.id,
      tenant: 'acme',
    });
    benSocket.send(
      'message.annotation',
      annotationData(String(frame.data.jobId), {
        entities: [{ start: 0, end: 4, extract: 'pain', category: 'symptom' }],
      }),
    );
    await benSocket.next('technician.session.waiting');

    const sample = await until(
      () => sampleOf(job.id),
      (row) => row?.state === 'completed',
    );
    expect(sample).toMatchObject({ state: 'completed', assignee_id: ben.userId, attempts: 1 });
    // Exactly one answer for the assistant: the first; the sample writes no event at all.
    expect(await outbox(job.id)).toEqual(['job.completed']);
    expect(await outbox(String(sample?.id))).toEqual([]);
    const completed = await sql<{ n: number }>`
      select count(*)::int as n from outbox_events where type = 'job.completed'`.execute(db());
    expect(completed.rows[0]?.n).toBe(1);
    // The second answer is not sampled again.
    const samples = await sql<{ n: number }>`
      select count(*)::int as n from jobs where agreement_of is not null`.execute(db());
    expect(samples.rows[0]?.n).toBe(1);

    for (const socket of open.splice(0)) {
      socket.ws.close();
      await socket.closed;
    }
  });

  it('gives a sample up after AGREEMENT_MAX_ATTEMPTS deliveries, without a word to the assistant', async () => {
    await until(
      async () =>
        (
          await sql<{ n: number }>`
            select count(*)::int as n from technician_sessions where connection_id is not null`.execute(
            db(),
          )
        ).rows[0]?.n,
      (n) => n === 0,
    );
    const annSocket = await waiting(ann.token);
    const job = await t.app.hub.add({
      queue: 'federated',
      type: 'message.annotation.job',
      tenant: 'acme',
      payload: { n: 2 },
    });
    await annSocket.next('message.annotation.job');
    annSocket.send('message.annotation', annotationData(job.id));
    const sample = await sampleOf(job.id);

    // Ben and then Cat receive it and drop their connection without an answer.
    for (const [attempt, tech] of [ben, cat].entries()) {
      const socket = await waiting(tech.token);
      expect((await socket.next('message.annotation.job')).data.jobId).toBe(sample?.id);
      socket.ws.terminate();
      await socket.closed;
      const after = await until(
        () => sampleOf(job.id),
        (row) => row?.state !== 'assigned',
      );
      expect(after).toMatchObject({
        state: attempt === 0 ? 'queued' : 'cancelled',
        attempts: attempt + 1,
        assignee_id: null,
      });
    }
    // Ann, still waiting, was never given it; nothing of the sample reached the outbox.
    expect(annSocket.received.filter((e) => e.type === 'message.annotation.job')).toHaveLength(1);
    expect(await outbox(String(sample?.id))).toEqual([]);
    expect(await outbox(job.id)).toEqual(['job.completed']);
  });
});

describe('agreement figures of known answer pairs (issue 16)', () => {
  let t: TestApp;
  let lead: Tech;
  let medical: Tech;
  let ann: Tech;
  let ben: Tech;
  let cat: Tech;
  let n = 0;

  const entity = (start: number, end: number, category: string) => ({
    start,
    end,
    extract: 'TEXT-NEVER-SHOWN',
    category,
  });

  /** A job answered by `first` and its sample answered by `second`, `s` seconds after T0. */
  async function pair(
    type: string,
    first: { user: string; result: object },
    second: { user: string; result: object },
    s: number,
  ) {
    n += 1;
    const id = `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
    const sampleId = `00000000-0000-4000-8000-0000000002${String(n).padStart(2, '0')}`;
    const insert = (
      jobId: string,
      user: string,
      result: object,
      when: Date,
      of: string | null,
      exclude: string | null,
    ) => sql`
      insert into jobs (id, queue, type, tenant, payload, state, attempts, assignee_id, result,
        queued_at, created_at, updated_at, completed_at, agreement_of, agreement_exclude)
      values (${jobId}, 'federated', ${type}, 'acme', '{}'::jsonb, 'completed', 1, ${user},
        ${JSON.stringify(result)}::jsonb, ${when}, ${when}, ${when}, ${when}, ${of}, ${exclude})`;
    await insert(id, first.user, first.result, at(s), null, null).execute(t.database.db);
    await insert(sampleId, second.user, second.result, at(s + 60), id, first.user).execute(
      t.database.db,
    );
    return { id, sampleId };
  }

  async function figures(token: string, query: Record<string, string> = {}) {
    const address = await t.app.inject({
      url: '/internal/analytics/dashboard',
      headers: { authorization: `Bearer ${token}` },
    });
    const url = new URL(address.json<{ url: string }>().url, 'http://x');
    const opened = await t.app.inject({
      url: `/internal/analytics/embed/_open?token=${url.searchParams.get('token') ?? ''}`,
    });
    const { viewToken } = opened.json<{ viewToken: string }>();
    const params = new URLSearchParams({
      from: T0.toISOString(),
      to: at(7200).toISOString(),
      ...query,
    });
    return t.app.inject({
      url: `/internal/analytics/embed/figures?${params.toString()}`,
      headers: { 'x-analytics-view': viewToken },
    });
  }

  let disagreeing: { id: string; sampleId: string };
  let outcome: { id: string; sampleId: string };

  beforeAll(async () => {
    t = await startTestApp();
    lead = await tokenForRoles(t, 'lead@example.test', ['medical', 'admin']);
    medical = await tokenForRoles(t, 'medic@example.test', ['medical']);
    ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    ben = await tokenForRoles(t, 'ben@example.test', ['annotator']);
    cat = await tokenForRoles(t, 'cat@example.test', ['annotator']);
    const annotation = (...entities: object[]) => ({
      type: 'message.annotation',
      data: { action: 'answer', entities },
    });
    // 1. Ann then Ben: one span of three each in common.
    disagreeing = await pair(
      'message.annotation',
      {
        user: ann.userId,
        result: annotation(
          entity(0, 5, 'symptom'),
          entity(10, 15, 'drug'),
          entity(20, 25, 'symptom'),
        ),
      },
      {
        user: ben.userId,
        result: annotation(
          entity(0, 5, 'symptom'),
          entity(10, 15, 'symptom'),
          entity(30, 35, 'drug'),
        ),
      },
      100,
    );
    // 2. Ben then Ann (the same pair): the same two spans.
    await pair(
      'message.annotation',
      { user: ben.userId, result: annotation(entity(0, 4, 'drug'), entity(5, 9, 'symptom')) },
      { user: ann.userId, result: annotation(entity(0, 4, 'drug'), entity(5, 9, 'symptom')) },
      200,
    );
    // 3. Ann then Cat on another type: a priority against an exception, no spans.
    outcome = await pair(
      'hpi.prioritised',
      { user: ann.userId, result: { type: 'hpi.prioritised', data: { action: 'set_priority' } } },
      {
        user: cat.userId,
        result: { type: 'hpi.prioritised.exception', data: { action: 'exception' } },
      },
      300,
    );
    // Outside the range: not counted.
    await pair(
      'message.annotation',
      { user: ann.userId, result: annotation(entity(0, 1, 'a')) },
      { user: ben.userId, result: annotation(entity(0, 1, 'b')) },
      9000,
    );
    // The rollups from scratch (the start-up refresh ran before this history existed).
    await sql`delete from analytics_refresh`.execute(t.database.db);
    await t.app.analytics.rollups.refresh();
  });
  afterAll(async () => {
    await t.close();
  });

  it('computes span-level F1 and kappa per job type and per pair exactly', async () => {
    const response = await figures(lead.token);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('TEXT-NEVER-SHOWN');
    const { agreement } = response.json<AnalyticsFigures>();
    // message.annotation: matched 1 + 2 of 3 + 3 + 2 + 2 spans: F1 = 2·3 / 10 = 0.6. Kappa over
    // six boundaries (symptom/symptom, drug/symptom, symptom/–, –/drug, drug/drug,
    // symptom/symptom): pₒ = 3/6; pₑ = (3·3 + 2·2 + 1·1)/36 = 14/36; κ = (18 − 14)/(36 − 14) = 4/22.
    expect(agreement.byType).toEqual([
      { type: 'hpi.prioritised', samples: 1, f1: null, items: 0, kappa: null },
      { type: 'message.annotation', samples: 2, f1: 0.6, items: 6, kappa: 0.1818 },
    ]);
    const names = (p: { first: { name: string }; second: { name: string } }) =>
      [p.first.name, p.second.name].sort().join(' & ');
    expect(
      (agreement.byPair ?? [])
        .map((p) => ({ pair: names(p), samples: p.samples, f1: p.f1, kappa: p.kappa }))
        .sort((a, b) => a.pair.localeCompare(b.pair)),
    ).toEqual([
      { pair: 'ann@example.test & ben@example.test', samples: 2, f1: 0.6, kappa: 0.1818 },
      { pair: 'ann@example.test & cat@example.test', samples: 1, f1: null, kappa: null },
    ]);
    // The disagreements, newest first: ids and counts, for reviewers to open the jobs.
    expect(agreement.disagreements).toEqual([
      {
        jobId: outcome.id,
        sampleJobId: outcome.sampleId,
        type: 'hpi.prioritised',
        tenant: 'acme',
        answeredAt: at(360).toISOString(),
        firstSpans: 0,
        secondSpans: 0,
        matchedSpans: 0,
        categoryDisagreements: 0,
        outcomeDiffers: true,
      },
      {
        jobId: disagreeing.id,
        sampleJobId: disagreeing.sampleId,
        type: 'message.annotation',
        tenant: 'acme',
        answeredAt: at(160).toISOString(),
        firstSpans: 3,
        secondSpans: 3,
        matchedSpans: 1,
        categoryDisagreements: 3,
        outcomeDiffers: false,
      },
    ]);
  });

  it('filters agreement by job type, and keeps the pairs for leads only', async () => {
    const f = (await figures(medical.token, { type: 'hpi.prioritised' })).json<AnalyticsFigures>();
    expect(f.agreement.byPair).toBeNull();
    expect(f.agreement.byType.map((x) => x.type)).toEqual(['hpi.prioritised']);
    expect(f.agreement.disagreements.map((d) => d.jobId)).toEqual([outcome.id]);
    // Samples are work for agreement only: not counted as jobs of the queue.
    expect(f.outcomes).toEqual([
      { type: 'hpi.prioritised', completed: 1, exceptions: 0, cancelled: 0, dead: 0, requeues: 0 },
    ]);
  });

  it('reads whole days from the day rows (028) and partial ones from the samples, alike', async () => {
    // Cat then Ben on Jan 6 (answered at 10:02:40): one of two spans agrees. Then from scratch.
    const annotation = (...entities: object[]) => ({
      type: 'message.annotation',
      data: { action: 'answer', entities },
    });
    await pair(
      'message.annotation',
      { user: cat.userId, result: annotation(entity(0, 5, 'symptom'), entity(6, 9, 'drug')) },
      { user: ben.userId, result: annotation(entity(0, 5, 'symptom'), entity(6, 9, 'symptom')) },
      86_400 + 100,
    );
    await sql`delete from analytics_refresh`.execute(t.database.db);
    await t.app.analytics.rollups.refresh();
    const days = await sql<{ day: Date; samples: number }>`
      select day, sum(samples)::int as samples from analytics_agreement_daily
      group by day order by day`.execute(t.database.db);
    expect(days.rows.map((r) => [new Date(r.day).toISOString(), r.samples])).toEqual([
      ['2026-01-05T00:00:00.000Z', 4],
      ['2026-01-06T00:00:00.000Z', 1],
    ]);
    const of = async (from: string, to: string, extra: Record<string, string> = {}) =>
      (await figures(lead.token, { from, to, ...extra })).json<AnalyticsFigures>().agreement;
    const week = await of('2026-01-03T00:00:00Z', '2026-01-08T00:00:00Z');
    expect(week.byType.map((x) => [x.type, x.samples])).toEqual([
      ['hpi.prioritised', 1],
      ['message.annotation', 4],
    ]);
    // Whole days only; Jan 5 partial and Jan 6-7 whole; Jan 5 whole and Jan 6 partial: each as
    // the samples themselves give it (a queue filter reads the samples, never the day rows).
    for (const [from, to] of [
      ['2026-01-03T00:00:00Z', '2026-01-08T00:00:00Z'],
      [at(150).toISOString(), '2026-01-08T00:00:00Z'],
      ['2026-01-04T00:00:00Z', at(86_400 + 200).toISOString()],
    ] as const) {
      expect(await of(from, to), `${from} → ${to}`).toEqual(
        await of(from, to, { queue: 'federated' }),
      );
    }
  });
});
