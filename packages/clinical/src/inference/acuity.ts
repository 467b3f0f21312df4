/** A complication of a differential entry with the patient's answer to its question. */
export interface AnsweredComplication {
  response?: string | undefined;
  acuity: string;
}

/** The part of a differential entry the acuity rule reads (spec 3 §3 "Differential inference"). */
export interface AcuityInput {
  acuity?: string | undefined;
  complications?: readonly AnsweredComplication[] | undefined;
}

/**
 * Acuity of a differential (spec 3 §4): start from the top entry's acuity; unless that is
 * emergent, an endorsed emergent complication gives emergent, else an endorsed urgent one gives
 * urgent. Returns undefined for an empty differential.
 */
export function differentialAcuity(entries: readonly AcuityInput[]): string | undefined {
  const top = entries[0];
  if (!top) {
    return undefined;
  }
  const start = top.acuity;
  if (start === 'emergent') {
    return start;
  }
  const endorsed = (top.complications ?? []).filter((c) => c.response === 'endorse');
  if (endorsed.some((c) => c.acuity === 'emergent')) {
    return 'emergent';
  }
  if (endorsed.some((c) => c.acuity === 'urgent')) {
    return 'urgent';
  }
  return start;
}

/** Ring fill for an acuity (spec 3 §4): emergent 100, urgent 60, anything else 30. */
export function acuityRing(acuity: string | undefined): number {
  return acuity === 'emergent' ? 100 : acuity === 'urgent' ? 60 : 30;
}
