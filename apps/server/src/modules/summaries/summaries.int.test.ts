import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SummaryJob } from '@loopdesk/contracts/summaries.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

const NEXT = '/internal/job-types/hpi-summarisation/jobs/_next';
const jobUrl = (id: string) => `/internal/job-types/hpi-summarisation/jobs/${id}`;

/** A note as the assistant writes it: one section, fever highlighted and coded twice. */
const document = {
  sections: [
    {
      id: 'history-of-present-illness',
      content: 'Fever for two days with a sore throat.',
      annotations: [{ id: 'a1', start: 0, end: 5, code: 'C0015967' }],
    },
  ],
  codes: [
    { source: 'snomed', code: { system: 'UMLS', code: 'C0015967', value: 'fever' } },
    { source: 'snomed', code: { system: 'ICD-10', code: 'R50.9', value: 'fever' } },
  ],
};

const summaryJob = (conversationId: string, tenant = 'acme-clinic') => ({
  queue: 'hpi-summarisation',
  type: 'hpi.summarisation.job',
  tenant,
  data: { document, sourceName: 'demo-assistant', sourceVersion: '1.0.0', conversationId },
});

describe('clinical summary review: leased jobs, holder-only saves, send to the physician', () => {
  let t: TestApp;
  let key: string;
  let ann: { token: string; userId: string };
  let ben: { token: string; userId: string };
  let counter = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    key = (
      await t.app.inject({
        method: 'POST',
        url: '/internal/integration/api-keys',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'assistant-test' },
      })
    ).json<{ key: string }>().key;
    ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    ben = await tokenForRoles(t, 'ben@example.test', ['experimental']);
  });
  beforeEach(async () => {
    await sql`delete from summary_reviews`.execute(t.database.db);
    await sql`delete from webhook_deliveries`.execute(t.database.db);
    await sql`delete from outbox_events`.execute(t.database.db);
    await sql`delete from jobs`.execute(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const asAssistant = (method: 'POST' | 'PUT', url: string, payload: unknown, headers = {}) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...headers },
      payload: payload as Record<string, unknown>,
    });
  const createJob = (body: unknown) =>
    asAssistant('POST', '/api/v1/jobs', body, { 'idempotency-key': `k-${++counter}` });
  const staff = (
    token: string,
    method: 'GET' | 'PATCH' | 'POST',
    url: string,
    payload?: unknown,
    tenant: string | null = 'acme-clinic',
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(tenant ? { 'x-tenant-id': tenant } : {}) },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const next = (token: string) => staff(token, 'GET', NEXT);
  const count = async (table: 'jobs' | 'outbox_events' | 'summary_reviews') =>
    (
      await t.database.db
        .selectFrom(table)
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const audits = (action: string) =>
    t.database.db.selectFrom('audit_events').selectAll().where('action', '=', action).execute();

  /** The assistant sends a summary job; returns its id. */
  async function sendSummary(conversationId = 'conv-1', tenant = 'acme-clinic'): Promise<string> {
    const response = await createJob(summaryJob(conversationId, tenant));
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  }

  it('the assistant sends a summary job; a malformed one is a 400 naming the field, and nothing is stored', async () => {
    const id = await sendSummary();
    expect(
      (await staff(ann.token, 'GET', '/internal/queues/hpi-summarisation/_size')).json(),
    ).toEqual({
      size: 1,
    });
    const badCode = structuredClone(summaryJob('conv-2'));
    badCode.data.document.sections[0]!.annotations[0]!.code = 'C9999999';
    const pastText = structuredClone(summaryJob('conv-2'));
    pastText.data.document.sections[0]!.annotations[0]!.end = 400;
    const cases: [unknown, string][] = [
      [{ ...summaryJob('conv-2'), data: { document } }, 'body.data.sourceName'],
      [badCode, 'body.data.document.sections.0.annotations.0.code'],
      [pastText, 'body.data.document.sections.0.annotations.0.end'],
      [{ ...summaryJob('conv-2'), queue: 'federated' }, 'body.queue'],
      [{ ...summaryJob('conv-2'), type: 'message.annotation.job' }, 'body.queue'],
    ];
    for (const [body, path] of cases) {
      const response = await createJob(body);
      expect(response.statusCode, path).toBe(400);
      expect(response.json<{ details: { path: string }[] }>().details.map((d) => d.path)).toContain(
        path,
      );
    }
    expect(await t.database.db.selectFrom('jobs').select('id').execute()).toEqual([{ id }]);
  });

  it('20 reviewers asking at once never get the same job; a reload gives back the held job', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await sendSummary(`conv-${i}`));
    }
    const reviewers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => tokenForRoles(t, `r${i}@example.test`, ['medical'])),
    );
    const answers = await Promise.all(reviewers.map((r) => next(r.token)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const taken = answers.map((a) => a.json<SummaryJob | null>()).filter((j) => j !== null);
    expect(taken.map((j) => j.id).sort()).toEqual([...ids].sort());
    expect(await count('jobs')).toBe(5);
    // One of them reloads the screen: the job they hold comes back, not another.
    const holder = reviewers[answers.findIndex((a) => a.json() !== null)]!;
    const first = taken[0]!;
    const again = (await next(holder.token)).json<SummaryJob>();
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({
      metadata: { tenant: 'acme-clinic', conversationId: expect.stringMatching(/^conv-/) },
      document,
      sourceName: 'demo-assistant',
    });
    expect(await audits('summary.job.take')).toHaveLength(6);
    expect((await audits('summary.job.next')).length).toBe(15);
  });

  it('the oldest job goes first; an expired lease returns it to the queue: another reviewer takes it, the first may no longer save', async () => {
    // The oldest job goes first: Ann gets it, Ben the younger one, Cai nothing.
    const id = await sendSummary();
    const younger = await sendSummary('conv-2');
    expect((await next(ann.token)).json<SummaryJob>().id).toBe(id);
    expect((await next(ben.token)).json<SummaryJob>().id).toBe(younger);
    const cai = (await tokenForRoles(t, 'cai@example.test', ['medical'])).token;
    expect((await next(cai)).json()).toBeNull();
    await sql`update jobs set lease_expires_at = now() - interval '1 second' where id = ${id}`.execute(
      t.database.db,
    );
    const taken = (await next(cai)).json<SummaryJob>();
    expect(taken.id).toBe(id);
    const late = await staff(ann.token, 'PATCH', jobUrl(id), taken);
    expect(await count('summary_reviews')).toBe(0);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain(`You do not hold summary job ${id}`);
    const types = (
      await t.database.db.selectFrom('outbox_events').select('type').orderBy('created_at').execute()
    ).map((e) => e.type);
    expect(types).toEqual(['job.created', 'job.created', 'job.requeued']);
  });

  it('only the holder saves, with the job’s tenant; every bad request is refused with nothing changed', async () => {
    const id = await sendSummary();
    const job = (await next(ann.token)).json<SummaryJob>();
    const edited = structuredClone(job);
    edited.document.sections[0]!.content = 'High fever for two days with a sore throat.';
    edited.document.sections[0]!.annotations = [{ id: 'a1', start: 5, end: 10, code: 'R50.9' }];
    const malformed = structuredClone(edited);
    malformed.document.sections[0]!.annotations[0]!.end = 99;
    const refusals: [string, ReturnType<typeof staff>, number, string][] = [
      ['another reviewer', staff(ben.token, 'PATCH', jobUrl(id), edited), 409, 'do not hold'],
      [
        'a wrong tenant',
        staff(ann.token, 'PATCH', jobUrl(id), edited, 'harbour-health'),
        403,
        'X-Tenant-ID',
      ],
      ['no tenant', staff(ann.token, 'PATCH', jobUrl(id), edited, null), 400, 'x-tenant-id'],
      [
        'an unknown id',
        staff(ann.token, 'PATCH', jobUrl('00000000-0000-4000-8000-000000000000'), edited),
        404,
        'No summary job',
      ],
      ['a malformed note', staff(ann.token, 'PATCH', jobUrl(id), malformed), 400, 'end'],
      [
        'another job in the body',
        staff(ann.token, 'PATCH', jobUrl(id), { ...edited, id: 'x-1' }),
        400,
        'body.id',
      ],
    ];
    for (const [what, request, status, says] of refusals) {
      const response = await request;
      expect(response.statusCode, what).toBe(status);
      expect(JSON.stringify(response.json()), what).toContain(says);
    }
    expect(await count('summary_reviews')).toBe(0);
    // The refusals of the service are in the audit trail (the schema's 400s name the field).
    const refused = (await audits('summary.job.save')).filter((a) => a.resource_id === id);
    // (The requests ran at once: their order is the database's.)
    expect(refused.map((a) => `${a.outcome} ${a.status_code}`).sort()).toEqual([
      'denied 400',
      'denied 403',
      'denied 409',
    ]);

    const saved = await staff(ann.token, 'PATCH', jobUrl(id), edited);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ id, document: edited.document });
    // The saved version is what the holder reads again; the assistant's note is unchanged.
    expect((await next(ann.token)).json<SummaryJob>().document).toEqual(edited.document);
    const row = await t.database.db
      .selectFrom('jobs')
      .select('payload')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect((row.payload as { document: unknown }).document).toEqual(document);
    expect(
      (await audits('summary.job.save')).filter(
        (a) => a.resource_id === id && a.outcome === 'success',
      ),
    ).toHaveLength(1);
  });

  it('sending completes the job and tells the assistant in the outbox; it cannot be sent twice', async () => {
    const id = await sendSummary('conv-9');
    const job = (await next(ann.token)).json<SummaryJob>();
    job.document.codes.push({
      source: 'manual',
      code: { system: 'UMLS', code: 'C0242429', value: 'sore throat' },
    });
    job.document.sections[0]!.annotations.push({ id: 'a2', start: 26, end: 37, code: 'C0242429' });
    const sent = await staff(ann.token, 'POST', `${jobUrl(id)}/_send`, job);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      id,
      sentBy: 'ann@example.test',
      sentAt: expect.any(String),
    });

    const events = await t.database.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('type', '=', 'job.completed')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      submission: { type: 'hpi.summarised', userId: ann.userId },
      job: {
        id,
        state: 'completed',
        result: {
          type: 'hpi.summarised',
          data: {
            conversationId: 'conv-9',
            reviewedBy: 'ann@example.test',
            document: job.document,
          },
        },
      },
    });
    // Queue sizes are cached and renewed on the bus's word: on PostgreSQL that word is a NOTIFY.
    await expect
      .poll(
        async () =>
          (await staff(ann.token, 'GET', '/internal/queues/hpi-summarisation/_size')).json<{
            size: number;
          }>(),
        { timeout: 10_000 },
      )
      .toEqual({ size: 0 });
    const twice = await staff(ann.token, 'POST', `${jobUrl(id)}/_send`, job);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toContain('already sent');
    expect(await count('outbox_events')).toBe(2);
    expect(
      (await audits('summary.job.send')).filter((a) => a.resource_id === id).map((a) => a.outcome),
    ).toEqual(['success', 'denied']);
    // The conversations area reads the reviewed note.
    expect(await t.app.summaryReview.latestReviewed('acme-clinic', 'conv-9')).toEqual({
      document: job.document,
      reviewedBy: 'ann@example.test',
      completedAt: expect.any(String),
    });
    expect(await t.app.summaryReview.latestReviewed('harbour-health', 'conv-9')).toBeNull();
  });

  it('the holder reads the conversation in pages of 10, oldest first; nobody else does', async () => {
    const put = await asAssistant('PUT', '/api/v1/conversations/conv-t', {
      tenant: 'acme-clinic',
      consumer: { id: 'patient-t', name: { given: 'Maya', family: 'Okafor' } },
    });
    expect(put.statusCode, put.body).toBe(201);
    for (let i = 1; i <= 12; i++) {
      const said = await asAssistant('POST', '/api/v1/conversations/conv-t/messages', {
        id: `m-${i}`,
        direction: i % 2 ? 'OUT' : 'IN',
        content: `Message ${i}`,
      });
      expect(said.statusCode, said.body).toBe(201);
    }
    const id = await sendSummary('conv-t');
    expect((await next(ann.token)).json<SummaryJob>().id).toBe(id);
    const first = await staff(ann.token, 'GET', `${jobUrl(id)}/messages`);
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json<{ items: { content: string }[]; page: { total: number } }>();
    expect(page.items.map((m) => m.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Message ${i + 1}`),
    );
    expect(page.page.total).toBe(12);
    const second = await staff(ann.token, 'GET', `${jobUrl(id)}/messages?p=1`);
    expect(second.json<{ items: unknown[] }>().items).toHaveLength(2);
    expect((await staff(ben.token, 'GET', `${jobUrl(id)}/messages`)).statusCode).toBe(409);
    expect((await staff(ann.token, 'GET', `${jobUrl(id)}/messages?p=-1`)).statusCode).toBe(400);
  });

  it('without jobs:summarise:perform every route is a 403 (audited); without a token a 401', async () => {
    const id = await sendSummary();
    const approver = (await tokenForRoles(t, 'apu@example.test', ['approver'])).token;
    for (const [method, url] of [
      ['GET', NEXT],
      ['PATCH', jobUrl(id)],
      ['POST', `${jobUrl(id)}/_send`],
      ['GET', `${jobUrl(id)}/messages`],
    ] as const) {
      expect(
        (await staff(approver, method, url, method === 'GET' ? undefined : {})).statusCode,
      ).toBe(403);
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
    expect((await audits('request.refused')).length).toBeGreaterThanOrEqual(8);
    expect(await count('summary_reviews')).toBe(0);
    const [row] = await t.database.db.selectFrom('jobs').select('state').execute();
    expect(row?.state).toBe('queued');
  });
});
