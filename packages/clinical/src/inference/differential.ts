import type { Acuity, Concept, KbItems, Prevalence } from '../kb/format.ts';
import { OBSERVATION_CLASSES, weightValue } from '../kb/format.ts';

/**
 * Differential diagnosis: naive Bayes over mutually exclusive conditions.
 *
 * Why naive Bayes and not noisy-OR: the test tool needs (a) one comparable likelihood per
 * condition and (b) the observations that would best tell the candidates apart. Both need a
 * posterior distribution over conditions; a single-fault naive Bayes model gives one directly,
 * and expected information gain is then exact and cheap. Noisy-OR models several diseases at
 * once, which needs per-disease priors and leak terms the KB does not hold, and its posterior
 * over conditions needs approximate inference. Priors come from each condition's prevalence
 * level (PREVALENCE_PRIOR), or from the caller.
 *
 * Likelihoods, P(observation present | condition):
 * - a Positive edge: its weight value (Low 0.25, Medium 0.5, High 0.85, or the number);
 * - a Negative edge: LEAK × (1 − weight), i.e. rarer than with no edge;
 * - no edge: LEAK (the observation turns up for unrelated reasons).
 * A denied observation uses 1 − P. An input weight w scales the evidence: the log-likelihood
 * term is multiplied by w (1 = as stated, 0 = ignored, 2 = counted twice).
 *
 * Broader findings: an observation's `parents` (is_a, among observations) are kinds it belongs
 * to (right lower abdominal pain is abdominal pain). A condition with a Positive edge to a
 * narrower finding has the broad one at least as often, so P(broad | condition) is the largest of
 * its own Positive edge and its narrower findings' (through any depth). Patients say the broad
 * finding ('tummy ache'), conditions are written with the narrow one. A Negative edge to the
 * broad finding itself stays as written; Negative edges are never passed up.
 */
export const LEAK = 0.05;

/** One observation given to the differential: a name, alias or id, and a weight (default 1). */
export interface ObservationInput {
  observation: string;
  weight?: number;
  /** Whether the patient has it (default 'endorse'); 'unsure' observations are left out. */
  presence?: 'endorse' | 'deny' | 'unsure';
}

/** A given observation that a condition's Positive edges point at, with the edge's weight. */
export interface AssociatedObservation {
  observation: string;
  observationId: string;
  weight: number;
}

/** One row of the differential (spec 3 §3 "Diagnosis prediction" inference entry). */
export interface DifferentialEntry {
  condition: string;
  conditionId: string;
  probability: number;
  acuity: Acuity | undefined;
  associatedObservations: AssociatedObservation[];
}

/** An observation worth asking about next, with its relevance in 0..1 (information gain in bits). */
export interface DifferentiatingObservation {
  observation: string;
  observationId: string;
  relevance: number;
}

/** The result of `differentialDiagnosis`. */
export interface DiagnosisPrediction {
  inference: DifferentialEntry[];
  differentiatingObservations: DifferentiatingObservation[];
  /** Inputs that named no observation in the KB. */
  unknownObservations: string[];
}

/**
 * Relative priors of the prevalence levels (format 1.1): a common condition is ten times as
 * likely as a rare one before any finding. A condition without a level counts as uncommon, so a
 * KB without prevalence gives uniform priors.
 */
export const PREVALENCE_PRIOR: Readonly<Record<Prevalence, number>> = {
  common: 1,
  uncommon: 0.3,
  rare: 0.1,
};

export interface DifferentialOptions {
  /** Relative prior per condition id, replacing its prevalence prior. */
  priors?: Readonly<Record<string, number>>;
  /** At most this many differentiating observations (default 10). */
  maxDifferentiating?: number;
}

/** A differential model built once over a KB's items. */
export interface DifferentialModel {
  /** Ranks conditions given observations. */
  diagnose(
    observations: readonly ObservationInput[],
    options?: DifferentialOptions,
  ): DiagnosisPrediction;
  /** Resolves an observation name, alias or id to its concept, if any. */
  resolveObservation(name: string): Concept | undefined;
  /** Observation concepts (names for the autocomplete), sorted by canonical name. */
  readonly observations: readonly Concept[];
}

const observationClasses = new Set<string>(OBSERVATION_CLASSES);

const normalise = (s: string): string => s.trim().toLowerCase().replace(/\s+/gu, ' ');

/** Builds a differential model from a KB's concepts and relationships. */
export function createDifferentialModel(items: KbItems): DifferentialModel {
  const conditions = items.concepts.filter((c) => c.class === 'condition');
  const observations = items.concepts
    .filter((c) => observationClasses.has(c.class))
    .sort((a, b) => a.canonicalName.localeCompare(b.canonicalName));
  const byName = new Map<string, Concept>();
  // Ids and canonical names first, so an alias never shadows another concept's own name.
  for (const o of observations) {
    byName.set(normalise(o.id), o);
  }
  for (const o of observations) {
    byName.set(normalise(o.canonicalName), o);
  }
  for (const o of observations) {
    for (const alias of o.aliases) {
      if (!byName.has(normalise(alias))) {
        byName.set(normalise(alias), o);
      }
    }
  }
  // P(present | condition) for every edge; absent pairs read LEAK.
  const likelihood = new Map<string, LikelihoodRow>();
  for (const r of items.relationships) {
    const w = weightValue(r.weight);
    const positive = r.correlation === 'Positive';
    const p = positive ? Math.min(0.99, Math.max(LEAK, w)) : LEAK * (1 - w) + 0.001;
    let row = likelihood.get(r.from);
    if (!row) {
      row = new Map();
      likelihood.set(r.from, row);
    }
    row.set(r.to, { p, positive, weight: w });
  }
  addBroaderFindings(likelihood, observations);
  const pPresent = (conditionId: string, observationId: string): number =>
    likelihood.get(conditionId)?.get(observationId)?.p ?? LEAK;
  // The same likelihoods as a dense observation × condition matrix, so ranking every observation
  // by information gain is plain arithmetic (a KB holds hundreds of each).
  const conditionIndex = new Map(conditions.map((c, i) => [c.id, i]));
  const matrix = new Float64Array(observations.length * conditions.length).fill(LEAK);
  observations.forEach((o, row) => {
    for (const [conditionId, edges] of likelihood) {
      const edge = edges.get(o.id);
      const column = conditionIndex.get(conditionId);
      if (edge && column !== undefined) {
        matrix[row * conditions.length + column] = edge.p;
      }
    }
  });

  function priorsFor(options: DifferentialOptions): number[] {
    const given = options.priors ?? {};
    return conditions.map((c) => {
      const v = given[c.id];
      return v !== undefined && v > 0 ? v : PREVALENCE_PRIOR[c.prevalence ?? 'uncommon'];
    });
  }

  return {
    observations,
    resolveObservation: (name) => byName.get(normalise(name)),
    diagnose(inputs, options = {}) {
      const unknownObservations: string[] = [];
      const evidence: { concept: Concept; weight: number; present: boolean }[] = [];
      const seen = new Set<string>();
      for (const input of inputs) {
        const concept = byName.get(normalise(input.observation));
        if (!concept) {
          unknownObservations.push(input.observation);
          continue;
        }
        const weight = input.weight ?? 1;
        if (input.presence === 'unsure' || !(weight > 0) || seen.has(concept.id)) {
          seen.add(concept.id);
          continue;
        }
        seen.add(concept.id);
        evidence.push({ concept, weight, present: input.presence !== 'deny' });
      }

      // Log posterior, then normalised.
      const priors = priorsFor(options);
      const logs = conditions.map((c, i) => {
        let log = Math.log(priors[i] ?? 1);
        for (const e of evidence) {
          const p = pPresent(c.id, e.concept.id);
          log += e.weight * Math.log(e.present ? p : 1 - p);
        }
        return log;
      });
      const max = Math.max(...logs);
      const unnormalised = logs.map((l) => Math.exp(l - max));
      const total = unnormalised.reduce((a, b) => a + b, 0);
      const posterior = unnormalised.map((v) => v / total);

      const inference: DifferentialEntry[] = [];
      conditions.forEach((c, i) => {
        const row = likelihood.get(c.id);
        const associatedObservations = evidence
          .filter((e) => e.present && row?.get(e.concept.id)?.positive === true)
          .map((e) => ({
            observation: e.concept.canonicalName,
            observationId: e.concept.id,
            weight: row?.get(e.concept.id)?.weight ?? 0,
          }));
        if (associatedObservations.length > 0) {
          inference.push({
            condition: c.canonicalName,
            conditionId: c.id,
            probability: posterior[i] ?? 0,
            acuity: c.acuity,
            associatedObservations,
          });
        }
      });
      inference.sort(
        (a, b) => b.probability - a.probability || a.condition.localeCompare(b.condition),
      );

      return {
        inference,
        differentiatingObservations: rankDifferentiating(
          posterior,
          seen,
          options.maxDifferentiating ?? 10,
        ),
        unknownObservations,
      };
    },
  };

  function rankDifferentiating(
    posterior: readonly number[],
    given: ReadonlySet<string>,
    limit: number,
  ): DifferentiatingObservation[] {
    const h = entropy(posterior);
    const candidates = new Set<string>();
    conditions.forEach((c, i) => {
      if ((posterior[i] ?? 0) > 1e-6) {
        for (const o of likelihood.get(c.id)?.keys() ?? []) {
          candidates.add(o);
        }
      }
    });
    const ranked: DifferentiatingObservation[] = [];
    const n = conditions.length;
    observations.forEach((concept, row) => {
      if (given.has(concept.id) || !candidates.has(concept.id)) {
        return;
      }
      // Expected entropy after learning whether the observation is present. With yes_i =
      // P(c_i) P(o | c_i): pYes · H(yes / pYes) = pYes log2 pYes − Σ yes_i log2 yes_i (and the
      // same for no), so one pass over the conditions gives it.
      let pYes = 0;
      let sumYes = 0;
      let sumNo = 0;
      for (let i = 0; i < n; i++) {
        const prior = posterior[i] ?? 0;
        const p = matrix[row * n + i] ?? LEAK;
        const yes = prior * p;
        const no = prior - yes;
        pYes += yes;
        sumYes += yes > 0 ? yes * Math.log2(yes) : 0;
        sumNo += no > 0 ? no * Math.log2(no) : 0;
      }
      const pNo = 1 - pYes;
      const expected =
        (pYes > 0 ? pYes * Math.log2(pYes) - sumYes : 0) +
        (pNo > 0 ? pNo * Math.log2(pNo) - sumNo : 0);
      const gain = Math.max(0, Math.min(1, h - expected));
      if (gain > 1e-12) {
        ranked.push({
          observation: concept.canonicalName,
          observationId: concept.id,
          relevance: gain,
        });
      }
    });
    return ranked
      .sort((a, b) => b.relevance - a.relevance || a.observation.localeCompare(b.observation))
      .slice(0, limit);
  }
}

type LikelihoodRow = Map<string, { p: number; positive: boolean; weight: number }>;

/**
 * Adds to each condition's row the broader findings its Positive edges imply (see the model's
 * comment): a broad finding takes the likelihood and weight of its likeliest narrower one, unless
 * the condition's own edge to it is Negative or already as likely.
 */
function addBroaderFindings(
  likelihood: ReadonlyMap<string, LikelihoodRow>,
  observations: readonly Concept[],
): void {
  const isObservation = new Set(observations.map((o) => o.id));
  const parents = new Map(
    observations.map((o) => [o.id, o.parents.filter((p) => isObservation.has(p))]),
  );
  const ancestorsCache = new Map<string, string[]>();
  const ancestors = (id: string): string[] => {
    const cached = ancestorsCache.get(id);
    if (cached) {
      return cached;
    }
    const found = new Set<string>();
    const pending = [...(parents.get(id) ?? [])];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (next !== id && !found.has(next)) {
        found.add(next);
        pending.push(...(parents.get(next) ?? []));
      }
    }
    const list = [...found];
    ancestorsCache.set(id, list);
    return list;
  };
  for (const row of likelihood.values()) {
    const implied = new Map<string, { p: number; weight: number }>();
    for (const [observationId, edge] of row) {
      if (!edge.positive) {
        continue;
      }
      for (const broad of ancestors(observationId)) {
        const best = implied.get(broad);
        if (!best || edge.p > best.p) {
          implied.set(broad, { p: edge.p, weight: edge.weight });
        }
      }
    }
    for (const [broad, { p, weight }] of implied) {
      const own = row.get(broad);
      if (own === undefined || (own.positive && own.p < p)) {
        row.set(broad, { p, positive: true, weight });
      }
    }
  }
}

/** Shannon entropy in bits of a distribution. */
export function entropy(distribution: readonly number[]): number {
  let h = 0;
  for (const p of distribution) {
    if (p > 0) {
      h -= p * Math.log2(p);
    }
  }
  return h;
}

/** One-shot differential: builds the model and ranks conditions for the observations. */
export function differentialDiagnosis(
  items: KbItems,
  observations: readonly ObservationInput[],
  options: DifferentialOptions = {},
): DiagnosisPrediction {
  return createDifferentialModel(items).diagnose(observations, options);
}
