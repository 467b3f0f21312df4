import type { PatientScript } from './patient-script.ts';

/**
 * The order the demo starts patients in: those handed to a human alternate with the others, so a
 * reviewer at the exception desk has a conversation within a minute of `npm start` even while
 * nobody works the federated queue (the open-conversation limit would otherwise fill with intakes
 * waiting for annotators).
 */
export function demoRotation(scripts: readonly PatientScript[]): PatientScript[] {
  const intakes = scripts.filter((p) => !p.handover);
  const handovers = scripts.filter((p) => p.handover);
  const order: PatientScript[] = [];
  for (let i = 0; i < Math.max(intakes.length, handovers.length); i++) {
    const intake = intakes[i];
    const handover = handovers[i];
    if (intake) {
      order.push(intake);
    }
    if (handover) {
      order.push(handover);
    }
  }
  return order;
}

/**
 * What an open demo conversation waits for: annotators (`intake`: its jobs on the federated
 * queue) or the exception desk (`desk`: handed over to a human).
 */
export type Phase = 'intake' | 'desk';

/** What a patient first waits for: the desk when they are handed over before any step. */
export const firstPhase = (script: PatientScript): Phase =>
  script.handover?.atStep === 0 ? 'desk' : 'intake';

/** An open demo conversation and what it waits for now. */
export interface OpenConversation {
  readonly script: PatientScript;
  phase: Phase;
}

/**
 * The next patient to start from the rotation at `next`, or null. A patient starts only while
 * fewer than `maxOpen` open conversations wait for what they will first wait for, and, for the
 * desk, while the same patient is not already waiting there. So intakes waiting for annotators
 * nobody works (handed-back patients among them) never keep work from a reviewer at the desk,
 * and a patient nobody at the desk may take (the restricted queue) holds up only their own script.
 */
export function nextPatient(
  rotation: readonly PatientScript[],
  next: number,
  open: readonly OpenConversation[],
  maxOpen: number,
): { script: PatientScript; next: number } | null {
  for (let tried = 0; tried < rotation.length; tried++) {
    const at = next + tried;
    const script = rotation[at % rotation.length];
    if (!script) {
      continue;
    }
    const phase = firstPhase(script);
    const waiting = open.filter((o) => o.phase === phase);
    if (waiting.length >= maxOpen) {
      continue;
    }
    if (phase === 'desk' && waiting.some((o) => o.script.id === script.id)) {
      continue;
    }
    return { script, next: at + 1 };
  }
  return null;
}
