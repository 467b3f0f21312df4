import { describe, expect, it } from 'vitest';
import { NextSummaryJob, SummaryJob, SummaryJobParams } from './summaries.ts';

// A summary job with every field spec 2 §3 lists.
const job = {
  id: '0b9c3c1e-6d4f-4a51-9a43-2b1f0f7d9e10',
  metadata: { tenant: 'clinic-a', conversationId: 'conv-1' },
  document: {
    sections: [
      {
        id: 'hpi',
        content: 'Fever for two days with a sore throat.',
        annotations: [{ id: 'a1', start: 0, end: 5, code: 'C0015967' }],
      },
    ],
    codes: [{ source: 'snomed', code: { system: 'UMLS', code: 'C0015967', value: 'Fever' } }],
  },
  sourceName: 'hpi-summariser',
  sourceVersion: '1.2.0',
};

const clone = (value: typeof job): typeof job => JSON.parse(JSON.stringify(value)) as typeof job;

describe('summary job schemas', () => {
  it('reads a summary job with sections, annotations and codes, keeping what the server adds', () => {
    const parsed = SummaryJob.parse({ ...job, createdOn: '2026-01-01T10:00:00Z' });
    expect(parsed.document.sections[0]?.annotations[0]?.code).toBe('C0015967');
    expect(parsed.metadata.tenant).toBe('clinic-a');
    expect(parsed).toHaveProperty('createdOn', '2026-01-01T10:00:00Z');
  });

  it('answers null for the next job when the queue is empty', () => {
    expect(NextSummaryJob.parse(null)).toBeNull();
  });

  it('refuses a job without sourceVersion, a tenant, or with a highlight ending before it starts', () => {
    const { sourceVersion: _dropped, ...withoutVersion } = job;
    expect(SummaryJob.safeParse(withoutVersion).success).toBe(false);
    expect(SummaryJob.safeParse({ ...job, metadata: { conversationId: 'conv-1' } }).success).toBe(
      false,
    );
    const backwards = clone(job);
    backwards.document.sections[0]!.annotations[0] = { id: 'a1', start: 5, end: 2, code: 'x' };
    const result = SummaryJob.safeParse(backwards);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must not end before it starts');
  });

  it('refuses a code given as a bare string instead of {system, code, value}', () => {
    const bad = clone(job) as unknown as { document: { codes: unknown[] } };
    bad.document.codes = [{ source: 'manual', code: 'C0015967' }];
    expect(SummaryJob.safeParse(bad).success).toBe(false);
  });

  it('takes a job id in the path and refuses one with a slash', () => {
    expect(SummaryJobParams.safeParse({ id: job.id }).success).toBe(true);
    expect(SummaryJobParams.safeParse({ id: 'a/b' }).success).toBe(false);
  });
});
