import { describe, expect, it } from 'vitest';
import type { CreateJobBody, EventFeed, JobView } from '@loopdesk/contracts/integration.ts';
import type { IntegrationClient } from './client.ts';
import { firstExtract, Outcomes, runConversation } from './conversation.ts';
import { PATIENTS } from './patients.ts';
import type { AppendMessageBody } from '@loopdesk/contracts/conversations.ts';
import { fakeTranscript } from './handover.test-kit.ts';

/** A fake Loopdesk: records created jobs and completes each with a chosen extract. */
function fakeLoopdesk(outcomes: Outcomes, extractFor: (job: CreateJobBody) => string | null) {
  const created: { body: CreateJobBody; key: string }[] = [];
  const transcript: AppendMessageBody[] = [];
  const client: IntegrationClient = {
    createJob(body, key) {
      created.push({ body, key });
      const id = `00000000-0000-4000-8000-${String(created.length).padStart(12, '0')}`;
      const extract = extractFor(body);
      const job: JobView = {
        id,
        queue: body.queue,
        type: body.type,
        tenant: body.tenant,
        state: 'completed',
        attempts: 1,
        priority: body.priority ?? 0,
        data: body.data,
        createdAt: new Date().toISOString(),
        completedAt: new Date().toISOString(),
        result: {
          type: 'message.annotation',
          data: {
            jobId: id,
            entities: extract ? [{ start: 0, end: extract.length, extract, category: 'x' }] : [],
          },
        },
      };
      // The technician answers right away, as the feed would report.
      setTimeout(() => outcomes.settle(job), 0);
      return Promise.resolve(job);
    },
    events: (): Promise<EventFeed> => Promise.resolve({ events: [], nextCursor: '0_0' }),
    requests: () => Promise.resolve({ requests: [] }),
    answer: () => Promise.resolve({}),
    ...fakeTranscript(transcript),
  };
  return { client, created, transcript };
}

describe('the demo assistant', () => {
  it('words each next question with what the technician annotated, and keys every job for retries', async () => {
    const outcomes = new Outcomes();
    const headache = PATIENTS.find((p) => p.id === 'headache');
    if (!headache) {
      throw new Error('no headache script');
    }
    const { client, created, transcript } = fakeLoopdesk(outcomes, (job) =>
      (job.data.slot as { code?: string } | undefined)?.code === 'chief_complaints'
        ? 'pounding headache'
        : null,
    );
    const finished = await runConversation(client, outcomes, headache, () => undefined);
    expect(finished).toHaveLength(headache.steps.length);
    // The transcript is kept in Loopdesk: each question (OUT), then the patient's answer (IN)
    // under the message id its job names, then what was understood from it (-DER).
    expect(transcript.slice(0, 3)).toEqual([
      { id: expect.stringMatching(/-q1$/), direction: 'OUT', content: 'What brings you in today?' },
      {
        id: (created[0]?.body.data.lastTurn as { messageId: string }).messageId,
        direction: 'IN',
        content: "I've had a pounding headache since yesterday morning",
      },
      {
        id: expect.stringMatching(/-m1-DER$/),
        direction: 'IN',
        content: 'pounding headache → x',
        metadata: { entities: [expect.objectContaining({ extract: 'pounding headache' })] },
      },
    ]);
    const onset = created[1]?.body.data;
    expect((onset?.quinnLastTurn as { content: string }).content).toBe(
      'When did your pounding headache start?',
    );
    expect(onset?.slotSpecification).toMatchObject({ code: 'onset', short_description: 'onset' });
    expect(onset?.lastTurn).toMatchObject({
      content: expect.any(String),
      messageId: expect.any(String),
      tenant: 'acme-clinic',
    });
    const keys = created.map((c) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
    // A boolean and an optional slot are part of the intake.
    expect(
      created.map(
        (c) =>
          c.body.data.slotSpecification as
            { data_type?: string; multiplicity?: string } | undefined,
      ),
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ data_type: 'boolean' }),
        expect.objectContaining({ multiplicity: '0..1' }),
      ]),
    );
  });

  it('covers every purpose and job kind across its patients', () => {
    const jobs = PATIENTS.flatMap((p) =>
      p.steps.map((s) => ({ type: s.type, queue: s.queue, data: s.build({ extracts: {} }) })),
    );
    const purposes = new Set(
      jobs.map((j) => (j.data.job as { purpose?: string } | undefined)?.purpose).filter(Boolean),
    );
    expect([...purposes].sort()).toEqual([
      'annotate-only',
      'full',
      'normalise',
      'reword',
      'verify-answered',
    ]);
    expect(new Set(jobs.map((j) => j.type))).toEqual(
      new Set([
        'message.annotation.job',
        'intent.classification.job',
        'intent.hpi.priority.job',
        'robot-process-automation.manual-step.job',
      ]),
    );
    expect(jobs.some((j) => j.queue === 'priority')).toBe(true);
  });

  it('reads the first annotated extract of a result, if any', () => {
    const base = {
      id: 'x',
      queue: 'federated',
      type: 't',
      tenant: 't',
      state: 'completed',
      attempts: 1,
      priority: 0,
      data: {},
      createdAt: '',
      completedAt: '',
    } as const;
    expect(
      firstExtract({
        ...base,
        result: { type: 'message.annotation', data: { entities: [{ extract: ' sore throat ' }] } },
      }),
    ).toBe('sore throat');
    expect(firstExtract({ ...base, result: null })).toBeUndefined();
  });
});
