import { describe, expect, it } from 'vitest';
import { demoRotation, kindOf, nextPatient, PATIENTS } from './patients.ts';

/** The parts of a job's data these checks read (spec 1 §3 job event data). */
interface JobData {
  slotSpecification?: { code: string; data_type?: string; multiplicity?: string };
  job?: { purpose?: string; exceptionLabel?: string };
  lastTurn?: {
    content?: string;
    metadata?: { entities?: { start: number; end: number; extract: string; category: string }[] };
  };
  slotUtteranceSpecification?: { options?: [string, string][] };
}

/** Every job the scripts send, as built from an empty memory. */
const jobs: { queue: string; type: string; data: JobData }[] = PATIENTS.flatMap((patient) =>
  patient.steps.map((step) => ({
    queue: step.queue,
    type: step.type,
    data: step.build({ extracts: {} }),
  })),
);

describe('the demo patients', () => {
  it('ask every HPI slot, a boolean slot and an optional slot', () => {
    const codes = new Set(jobs.map((job) => job.data.slotSpecification?.code));
    for (const code of [
      'chief_complaints',
      'current_complaint',
      'onset',
      'associated_sx',
      'patient_description',
    ]) {
      expect(codes, code).toContain(code);
    }
    expect(jobs.some((job) => job.data.slotSpecification?.data_type === 'boolean')).toBe(true);
    expect(jobs.some((job) => job.data.slotSpecification?.multiplicity?.startsWith('0..'))).toBe(
      true,
    );
  });

  it('use every purpose, and send priority and robot-process-automation jobs', () => {
    const purposes = new Set(jobs.map((job) => job.data.job?.purpose));
    for (const purpose of ['full', 'annotate-only', 'verify-answered', 'reword', 'normalise']) {
      expect(purposes, purpose).toContain(purpose);
    }
    expect(jobs).toContainEqual(
      expect.objectContaining({ queue: 'priority', type: 'intent.hpi.priority.job' }),
    );
    expect(jobs.some((job) => job.type.startsWith('robot-process-automation.'))).toBe(true);
    expect(jobs.some((job) => job.type === 'intent.classification.job')).toBe(true);
  });

  it('send a job with a custom exception label, on a purpose job (its exception is suggest_forget)', () => {
    const labelled = jobs.filter((job) => job.data.job?.exceptionLabel !== undefined);
    expect(labelled.map((job) => job.data.job)).toEqual([
      { purpose: 'full', exceptionLabel: 'Not about health' },
    ]);
    expect(labelled[0]?.type).toBe('message.annotation.job');
  });

  it('start a patient for the exception desk second, then alternate, so no kind waits on the other', () => {
    const order = demoRotation(PATIENTS);
    expect(order).toHaveLength(PATIENTS.length);
    expect(new Set(order.map((p) => p.id))).toEqual(new Set(PATIENTS.map((p) => p.id)));
    expect(order[0]?.handover).toBeUndefined();
    expect(order[1]?.handover).toBeDefined();
    const handovers = order.flatMap((p, i) => (p.handover ? [i] : []));
    expect(handovers).toEqual(handovers.map((_, k) => 2 * k + 1));
  });

  it('keep starting patients for the exception desk while intakes wait for annotators, and the other way round', () => {
    const order = demoRotation(PATIENTS);
    // Three intakes wait for annotators nobody works: only patients for the desk start.
    const full = { intake: 3, handover: 0 };
    let next = 0;
    const started: string[] = [];
    for (let i = 0; i < 3; i++) {
      const picked = nextPatient(order, next, full, 3);
      expect(picked).not.toBeNull();
      started.push(picked?.script.id ?? '');
      expect(picked && kindOf(picked.script)).toBe('handover');
      next = picked?.next ?? next;
    }
    expect(new Set(started).size).toBe(Math.min(3, order.filter((p) => p.handover).length));
    // Three wait for a reviewer: only intakes start, in their turn.
    const desk = nextPatient(order, 1, { intake: 0, handover: 3 }, 3);
    expect(desk?.script).toBe(order[2]);
    expect(desk?.next).toBe(3);
    // Both full: nobody starts.
    expect(nextPatient(order, 0, { intake: 3, handover: 3 }, 3)).toBeNull();
  });

  it('offer a question to rephrase, and annotations to hide (annotate-only) and to start without (verify-answered)', () => {
    expect(
      jobs.some((job) => (job.data.slotUtteranceSpecification?.options ?? []).length > 1),
    ).toBe(true);
    const annotated = (purpose: string) =>
      jobs.find((job) => job.data.job?.purpose === purpose)?.data.lastTurn?.metadata?.entities ??
      [];
    expect(annotated('annotate-only').map((e) => e.category)).toEqual(
      expect.arrayContaining(['sx', 'nlp_sx', 'location']),
    );
    expect(annotated('verify-answered').length).toBeGreaterThan(0);
    // Every annotation the scripts carry is the text at its offsets.
    for (const job of jobs) {
      for (const entity of job.data.lastTurn?.metadata?.entities ?? []) {
        expect(job.data.lastTurn?.content?.slice(entity.start, entity.end)).toBe(entity.extract);
      }
    }
  });
});
