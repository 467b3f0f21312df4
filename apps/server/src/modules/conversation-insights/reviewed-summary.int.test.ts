import type { CurrentClinicalSummary } from '@loopdesk/contracts/conversation-insights.ts';
import type { SummaryJob } from '@loopdesk/contracts/summaries.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { apiKeyFor, tokenForRoles } from '../../test/tokens.ts';

const TENANT = 'acme-clinic';
const CURRENT = '/internal/intelligence/conversations/rev-1/clinical_summaries/_current';
const NEXT = '/internal/job-types/hpi-summarisation/jobs/_next';

/** A note as the assistant writes it (spec 2 §3), of one section. */
const noteOf = (content: string) => ({
  sections: [{ id: 'history-of-present-illness', content, annotations: [] }],
  codes: [],
});

/**
 * The current clinical summary of a conversation (issue 14) once a reviewer has sent one
 * (the summaries module's `app.summaryReview.latestReviewed`): the reviewed note, not the one
 * composed from memory, with who reviewed it.
 */
describe('the current clinical summary after a reviewer sends one', () => {
  let t: TestApp;
  let key: string;
  let ann: string;
  let medical: string;
  let counter = 0;
  let heldJob: SummaryJob | undefined;

  const assistant = (method: 'PUT' | 'POST', url: string, payload: unknown, headers = {}) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...headers },
      payload: payload as Record<string, unknown>,
    });
  const staff = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'x-tenant-id': TENANT },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const current = async () => {
    const response = await staff(medical, 'GET', CURRENT);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CurrentClinicalSummary>();
  };
  /** The annotator holding `job` sends it to the physician. */
  const send = async (job: SummaryJob) => {
    const url = `/internal/job-types/hpi-summarisation/jobs/${job.id}/_send`;
    const sent = await staff(ann, 'POST', url, job);
    expect(sent.statusCode, sent.body).toBe(200);
  };
  /** The assistant sends a summary job for rev-1; the annotator takes it (and, if asked, sends it). */
  const review = async (content: string, sendIt: boolean) => {
    const created = await assistant(
      'POST',
      '/api/v1/jobs',
      {
        queue: 'hpi-summarisation',
        type: 'hpi.summarisation.job',
        tenant: TENANT,
        data: {
          document: noteOf(content),
          sourceName: 'demo-assistant',
          sourceVersion: '1.0.0',
          conversationId: 'rev-1',
        },
      },
      { 'idempotency-key': `rev-${++counter}` },
    );
    expect(created.statusCode, created.body).toBe(201);
    const job = (await staff(ann, 'GET', NEXT)).json<SummaryJob>();
    expect(job.id).toBe(created.json<{ id: string }>().id);
    if (sendIt) {
      await send(job);
    }
    return job;
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await apiKeyFor(t, 'reviewed-summary-test');
    ann = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    medical = (await tokenForRoles(t, 'meg@example.test', ['medical'])).token;
    const put = await assistant('PUT', '/api/v1/conversations/rev-1', {
      tenant: TENANT,
      consumer: { id: 'patient-rev-1', name: { given: 'Ines', family: 'Alvarez' } },
    });
    expect(put.statusCode, put.body).toBe(201);
    const said = await assistant('POST', '/api/v1/conversations/rev-1/messages', {
      id: 'm1',
      direction: 'IN',
      content: 'I have had a fever since Monday.',
    });
    expect(said.statusCode, said.body).toBe(201);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is composed from memory, not reviewed, while no summary has been sent', async () => {
    expect(await current()).toMatchObject({
      reviewed: false,
      source: 'memory',
      reviewedBy: null,
      completedAt: null,
    });
    // A summary taken but not sent yet is not a reviewed one.
    heldJob = await review('Held, not sent.', false);
    expect(await current()).toMatchObject({ reviewed: false, source: 'memory' });
  });

  it('is the reviewed note once sent, with the reviewer; a later one sent replaces it', async () => {
    expect(heldJob).toBeDefined();
    await send(heldJob!);
    const first = await current();
    expect(first).toEqual({
      document: noteOf('Held, not sent.'),
      reviewed: true,
      source: 'review',
      reviewedBy: 'ann@example.test',
      completedAt: expect.any(String),
    });
    expect(Number.isNaN(Date.parse(first.completedAt ?? ''))).toBe(false);

    await review('Fever since Monday; no rash.', true);
    expect(await current()).toMatchObject({
      document: noteOf('Fever since Monday; no rash.'),
      reviewed: true,
      reviewedBy: 'ann@example.test',
    });
  });
});
