import type { Concept, KbItems } from '../kb/format.ts';
import type { Recogniser } from '../nlp/recognise.ts';

/** A red flag: an observation of a high-acuity condition that the patient says they have. */
export interface RedFlag {
  observation: string;
  observationId: string;
  /** The emergent conditions strongly tied to the observation. */
  conditions: string[];
}

/** What a patient reports or a clinician finds (not risk factors such as age or travel). */
const FLAGGED_CLASSES = new Set(['observation', 'sign', 'symptom']);

/**
 * The observations that are red flags in a knowledge base: those with a High-weight positive
 * relationship to an emergent condition, where emergent conditions make up at least half of the
 * conditions the observation is strongly (High) tied to. So chest pain (myocardial infarction,
 * aortic dissection) and one-sided weakness (stroke) are red flags, while headache or fever,
 * strongly tied to many ordinary conditions too, are not.
 */
export function redFlagObservations(
  items: Pick<KbItems, 'concepts' | 'relationships'>,
): Map<string, string[]> {
  const byId = new Map<string, Concept>(items.concepts.map((c) => [c.id, c]));
  const strong = new Map<string, { emergent: string[]; all: number }>();
  for (const relationship of items.relationships) {
    if (relationship.correlation === 'Negative' || relationship.weight !== 'High') {
      continue;
    }
    const condition = byId.get(relationship.from);
    const observation = byId.get(relationship.to);
    if (condition?.class !== 'condition' || !observation) {
      continue;
    }
    if (!FLAGGED_CLASSES.has(observation.class)) {
      continue;
    }
    const entry = strong.get(observation.id) ?? { emergent: [], all: 0 };
    entry.all += 1;
    if (condition.acuity === 'emergent') {
      entry.emergent.push(condition.canonicalName);
    }
    strong.set(observation.id, entry);
  }
  const flagged = new Map<string, string[]>();
  for (const [id, entry] of strong) {
    if (entry.emergent.length > 0 && entry.emergent.length * 2 >= entry.all) {
      flagged.set(id, entry.emergent);
    }
  }
  return flagged;
}

/**
 * The red flags in what a patient wrote: the recognised observations that are red flags and that
 * the patient says they have now (not denied, not of the past, of a relative, or a what-if).
 * Each observation once, in the order of the text.
 */
export function redFlagsIn(
  text: string,
  recogniser: Recogniser,
  flagged: ReadonlyMap<string, readonly string[]>,
): RedFlag[] {
  const found = new Map<string, RedFlag>();
  for (const entity of recogniser.recognise(text).entities) {
    const conditions = flagged.get(entity.conceptId);
    const { historical, family, hypothetical } = entity.context;
    if (
      !conditions ||
      entity.negated ||
      entity.presence !== 'endorse' ||
      historical ||
      family ||
      hypothetical ||
      found.has(entity.conceptId)
    ) {
      continue;
    }
    found.set(entity.conceptId, {
      observation: entity.canonicalName,
      observationId: entity.conceptId,
      conditions: [...conditions],
    });
  }
  return [...found.values()];
}
