import { describe, expect, it } from 'vitest';
import type { JobView } from '@loopdesk/contracts/integration.ts';
import { SummaryJobData } from '@loopdesk/contracts/summaries.ts';
import { receiveClinicalNote, summaryJob, writeNote } from './summaries.ts';

describe('the demo assistant’s clinical summaries', () => {
  it('writes a note from the annotated extracts, coded with the knowledge base (UMLS, ICD-10)', () => {
    const note = writeNote({
      chief_complaints: 'headache since yesterday morning',
      onset: 'yesterday around 8 in the morning',
      additional_info: 'I get migraines sometimes but this feels different',
    });
    expect(note?.sections.map((s) => s.id)).toEqual([
      'chief_complaints',
      'onset',
      'additional_info',
    ]);
    const first = note!.sections[0]!;
    expect(first.content).toBe('Presents with headache since yesterday morning.');
    const highlighted = note!.sections.flatMap((s) =>
      s.annotations.map((a) => s.content.slice(a.start, a.end)),
    );
    expect(highlighted).toEqual(['headache', 'migraines']);
    expect(note!.codes.map((c) => `${c.code.system} ${c.code.code} ${c.code.value}`)).toEqual([
      'UMLS C0018681 headache',
      'UMLS C0149931 migraine',
      'ICD-10 G43 migraine',
    ]);
    // Every highlight stands for one of the note's codes: the server would refuse it otherwise.
    const job = summaryJob(
      {
        conversationId: 'c-1',
        tenant: 'acme-clinic',
        name: { given: 'Maya', family: 'Okafor' },
        extracts: {},
      },
      note,
    );
    expect(SummaryJobData.safeParse(job?.data).success).toBe(true);
    expect(job).toMatchObject({ queue: 'hpi-summarisation', type: 'hpi.summarisation.job' });
  });

  it('sends nothing when nothing was annotated', () => {
    expect(writeNote({})).toBeNull();
  });

  it('records the receipt of a clinical note a reviewer sent, and ignores other jobs', () => {
    const lines: string[] = [];
    const job = {
      id: 'j-1',
      queue: 'hpi-summarisation',
      state: 'completed',
      result: {
        type: 'hpi.summarised',
        data: {
          conversationId: 'c-1',
          reviewedBy: 'ann@example.test',
          document: {
            sections: [],
            codes: [
              { source: 'manual', code: { system: 'UMLS', code: 'C0018681', value: 'headache' } },
            ],
          },
        },
      },
    } as unknown as JobView;
    expect(receiveClinicalNote(job, (line) => lines.push(line))).toBe(true);
    expect(lines[0]).toBe(
      'clinical note received for the physician: job j-1, conversation c-1, reviewed by ann@example.test; codes UMLS C0018681',
    );
    expect(receiveClinicalNote({ ...job, queue: 'federated' }, (line) => lines.push(line))).toBe(
      false,
    );
    expect(lines).toHaveLength(1);
  });
});
