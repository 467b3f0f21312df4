import { describe, expect, it } from 'vitest';
import {
  demoRotation,
  firstPhase,
  nextPatient,
  type OpenConversation,
} from './patient-rotation.ts';
import type { PatientScript } from './patient-script.ts';
import { PATIENTS } from './patients.ts';

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

  it('keep handing patients to a reviewer alone at the desk, while intakes wait for annotators nobody works', () => {
    const order = demoRotation(PATIENTS);
    const byId = (id: string) => PATIENTS.find((p) => p.id === id) as PatientScript;
    // Three intakes wait for annotators; Noah waits at the desk, Rangi in the restricted queue.
    const open: OpenConversation[] = [
      ...order
        .filter((p) => !p.handover)
        .slice(0, 3)
        .map((script) => ({ script, phase: 'intake' as const })),
      { script: byId('ask-human'), phase: 'desk' },
      { script: byId('staff-member'), phase: 'desk' },
    ];
    // Lucía, who asks about a medicine dose, comes to the desk beside Noah.
    const lucia = nextPatient(order, 0, open, 3);
    expect(lucia?.script.id).toBe('medication-question');
    open.push({ script: byId('medication-question'), phase: 'desk' });
    // Now nobody else starts: the intakes are full and the desk holds three.
    expect(nextPatient(order, 0, open, 3)).toBeNull();
    // The reviewer hands Noah back: he waits for annotators now, and another Noah comes.
    const noah = open[3] as OpenConversation;
    noah.phase = 'intake';
    const picked = nextPatient(order, 0, open, 3);
    expect(picked?.script.id).toBe('ask-human');
    expect(firstPhase(picked?.script as PatientScript)).toBe('desk');
    // Ava goes off-script only after an intake step: she waits for annotators first.
    expect(firstPhase(byId('off-script'))).toBe('intake');
  });

  it('start patients in rotation, skipping those whose wait is full', () => {
    const order = demoRotation(PATIENTS);
    expect(nextPatient(order, 0, [], 3)).toEqual({ script: order[0], next: 1 });
    const deskFull: OpenConversation[] = order
      .filter((p) => p.handover?.atStep === 0)
      .map((script) => ({ script, phase: 'desk' }));
    // Noah's turn (1) is skipped while he waits at the desk: the next intake starts.
    expect(nextPatient(order, 1, deskFull, 3)).toEqual({ script: order[2], next: 3 });
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
