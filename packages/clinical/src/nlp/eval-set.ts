import { z } from 'zod';
import type { ConceptEntity, Recogniser } from './recognise.ts';

/**
 * Scoring of the recogniser on an annotated evaluation set (data/eval: patient chat messages with
 * gold spans, concepts, presence and context). Pure: the caller reads the files.
 */

export const GoldMention = z.object({
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  text: z.string(),
  /** The concept the words name; several when annotators accept either (first preferred). */
  conceptIds: z.array(z.string()).min(1),
  presence: z.enum(['endorse', 'deny', 'unsure']),
  family: z.boolean(),
  historical: z.boolean(),
  hypothetical: z.boolean(),
  /** Medications: the dose and frequency words when the message gives them. */
  dose: z.string().optional(),
  frequency: z.string().optional(),
});
export type GoldMention = z.infer<typeof GoldMention>;

export const EvalMessage = z.object({
  id: z.string(),
  /** What the message exercises: lay, typo, texting, spelling, multi, neglist, family, past, hypo, med. */
  tags: z.array(z.string()).min(1),
  text: z.string(),
  entities: z.array(GoldMention),
});
export type EvalMessage = z.infer<typeof EvalMessage>;

/** Parses a JSONL evaluation file, checking every gold span against its message. */
export function parseEvalSet(jsonl: string): EvalMessage[] {
  return jsonl
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const message = EvalMessage.parse(JSON.parse(line));
      for (const gold of message.entities) {
        if (message.text.slice(gold.start, gold.end) !== gold.text) {
          throw new Error(`line ${i + 1}: gold '${gold.text}' is not at ${gold.start}`);
        }
      }
      return message;
    });
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

/** The figures of one group of mentions (a tag, a class, or all). */
export interface GroupScore extends Counts {
  precision: number;
  recall: number;
  /** Of matched mentions: negated exactly when the gold denies. */
  negation: number;
  /** Of matched mentions: family, historical and hypothetical flags all as in the gold. */
  context: number;
  matched: number;
}

export interface EvalScore {
  overall: GroupScore;
  byTag: Record<string, GroupScore>;
  byClass: Record<string, GroupScore>;
  /** Of matched medication mentions with a gold dose or frequency: both read right. */
  doseFrequency: { right: number; of: number };
  /** Every miss, readable: 'FN', 'FP', 'NEG', 'CONTEXT', 'DOSE'. */
  misses: string[];
}

interface Tally extends Counts {
  negationRight: number;
  contextRight: number;
  matched: number;
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
const empty = (): Tally => ({ tp: 0, fp: 0, fn: 0, negationRight: 0, contextRight: 0, matched: 0 });
const finish = (t: Tally): GroupScore => ({
  tp: t.tp,
  fp: t.fp,
  fn: t.fn,
  matched: t.matched,
  precision: ratio(t.tp, t.tp + t.fp),
  recall: ratio(t.tp, t.tp + t.fn),
  negation: ratio(t.negationRight, t.matched),
  context: ratio(t.contextRight, t.matched),
});

/**
 * Concepts that state a context themselves ('family history of bowel cancer', 'past episodes of
 * depression'): the flag their name already says is not scored, since 'heart disease runs in the
 * family' names the patient's own risk factor whether or not the family flag is set.
 */
export function contextOfConcept(conceptId: string): { family: boolean; historical: boolean } {
  return {
    family: conceptId.startsWith('LD:family-history'),
    historical: HISTORY_CONCEPTS.has(conceptId),
  };
}
const HISTORY_CONCEPTS = new Set([
  'LD:past-depressive-episodes',
  'LD:previous-similar-episodes',
  'LD:cancer-history',
  'LD:known-heart-disease',
  'LD:previous-abdominal-surgery',
  'LD:psoriasis-history',
  'LD:sunburn-history',
]);

/** Dose and frequency words compared without case, spaces or a trailing full stop. */
const squash = (s: string | undefined) => (s ?? '').toLowerCase().replace(/[\s.]+/gu, '');

/**
 * Scores a recogniser on messages. A found mention is right when its span overlaps a gold span
 * and its concept is one of the gold's; each gold is matched once. Negation and context accuracy
 * are over matched mentions.
 */
export function scoreEvalSet(
  messages: readonly EvalMessage[],
  recogniser: Recogniser,
  classOf: (conceptId: string) => string | undefined,
): EvalScore {
  const overall = empty();
  const byTag = new Map<string, Tally>();
  const byClass = new Map<string, Tally>();
  const misses: string[] = [];
  const doseFrequency = { right: 0, of: 0 };
  const groupsOf = (message: EvalMessage, cls: string): Tally[] => {
    const tallies = [overall];
    for (const key of message.tags) {
      tallies.push(byTag.get(key) ?? byTag.set(key, empty()).get(key)!);
    }
    tallies.push(byClass.get(cls) ?? byClass.set(cls, empty()).get(cls)!);
    return tallies;
  };

  for (const message of messages) {
    const found = recogniser.recognise(message.text).entities;
    const used = new Set<number>();
    for (const p of found) {
      const i = message.entities.findIndex(
        (g, j) =>
          !used.has(j) && g.conceptIds.includes(p.conceptId) && g.start < p.end && p.start < g.end,
      );
      if (i < 0) {
        groupsOf(message, p.class).forEach((t) => t.fp++);
        misses.push(`FP ${p.conceptId} '${p.original}' in ${message.id}: ${message.text}`);
        continue;
      }
      used.add(i);
      const gold = message.entities[i] as GoldMention;
      const negationRight = (gold.presence === 'deny') === p.negated;
      const own = contextOfConcept(p.conceptId);
      const contextRight =
        (own.family || gold.family === p.context.family) &&
        (own.historical || gold.historical === p.context.historical) &&
        gold.hypothetical === p.context.hypothetical;
      for (const t of groupsOf(message, p.class)) {
        t.tp++;
        t.matched++;
        t.negationRight += negationRight ? 1 : 0;
        t.contextRight += contextRight ? 1 : 0;
      }
      if (!negationRight) {
        misses.push(
          `NEG ${p.negated ? 'negated' : 'not negated'} '${p.original}' in ${message.id}: ${message.text}`,
        );
      }
      if (!contextRight) {
        misses.push(
          `CONTEXT ${flags(p.context)} ≠ ${flags(gold)} '${p.original}' in ${message.id}: ${message.text}`,
        );
      }
      if (gold.dose !== undefined || gold.frequency !== undefined) {
        doseFrequency.of++;
        const { dose, frequency } = p as ConceptEntity & { dose?: string; frequency?: string };
        if (squash(dose) === squash(gold.dose) && squash(frequency) === squash(gold.frequency)) {
          doseFrequency.right++;
        } else {
          misses.push(
            `DOSE '${dose ?? ''}' '${frequency ?? ''}' ≠ '${gold.dose ?? ''}' '${gold.frequency ?? ''}' in ${message.id}: ${message.text}`,
          );
        }
      }
    }
    message.entities.forEach((g, j) => {
      if (!used.has(j)) {
        groupsOf(message, classOf(g.conceptIds[0] as string) ?? 'unknown').forEach((t) => t.fn++);
        misses.push(`FN ${g.conceptIds.join('|')} '${g.text}' in ${message.id}: ${message.text}`);
      }
    });
  }
  const record = (map: Map<string, Tally>) =>
    Object.fromEntries([...map.entries()].sort().map(([k, t]) => [k, finish(t)]));
  return {
    overall: finish(overall),
    byTag: record(byTag),
    byClass: record(byClass),
    doseFrequency,
    misses,
  };
}

function flags(c: { family: boolean; historical: boolean; hypothetical: boolean }): string {
  const on = (['family', 'historical', 'hypothetical'] as const).filter((k) => c[k]);
  return on.length === 0 ? 'none' : on.join('+');
}

/** The score as `name: value` lines (what `npm run eval:nlp` prints). */
export function formatScore(prefix: string, score: EvalScore): string[] {
  const fmt = (n: number) => n.toFixed(2);
  const line = (name: string, s: GroupScore) =>
    `${prefix}.${name}: recall ${fmt(s.recall)} precision ${fmt(s.precision)} negation ${fmt(s.negation)} context ${fmt(s.context)} (tp ${s.tp} fp ${s.fp} fn ${s.fn})`;
  return [
    line('overall', score.overall),
    ...Object.entries(score.byTag).map(([k, s]) => line(`tag.${k}`, s)),
    ...Object.entries(score.byClass).map(([k, s]) => line(`class.${k}`, s)),
    `${prefix}.dose_frequency: ${score.doseFrequency.right}/${score.doseFrequency.of}`,
  ];
}
