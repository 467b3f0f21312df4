import { z } from 'zod';
import {
  Complication,
  Concept,
  Question,
  Relationship,
  Treatment,
  type KbItems,
  type KnowledgeBase,
} from './format.ts';
import { checkIntegrity } from './integrity.ts';
import { mergeConcept } from './merge.ts';

const removals = z.array(z.string().min(1)).default([]);

/**
 * A revision of a knowledge base: items to add or replace, and ids of items to remove. Concepts
 * are never removed (other items may point at them); an upserted concept with a known id is
 * merged into it. A relationship replaces the one with its id, or else the one of the same
 * condition → observation pair.
 */
export const KbChange = z.object({
  upsert: z
    .object({
      concepts: z.array(Concept).default([]),
      relationships: z.array(Relationship).default([]),
      complications: z.array(Complication).default([]),
      questions: z.array(Question).default([]),
      treatments: z.array(Treatment).default([]),
    })
    .prefault({}),
  remove: z
    .object({
      relationships: removals,
      complications: removals,
      questions: removals,
      treatments: removals,
    })
    .prefault({}),
});
export type KbChange = z.infer<typeof KbChange>;
export type KbChangeInput = z.input<typeof KbChange>;

/** Whether a change changes nothing. */
export function isEmptyChange(change: KbChange): boolean {
  return (
    Object.values(change.upsert).every((list) => list.length === 0) &&
    Object.values(change.remove).every((list) => list.length === 0)
  );
}

function upsertById<T extends { id: string }>(
  list: readonly T[],
  removed: readonly string[],
  upserts: readonly T[],
): T[] {
  const gone = new Set(removed);
  const out = list.filter((item) => !gone.has(item.id));
  for (const item of upserts) {
    const at = out.findIndex((existing) => existing.id === item.id);
    if (at >= 0) {
      out[at] = item;
    } else {
      out.push(item);
    }
  }
  return out;
}

/**
 * Applies a change to a KB's items and returns new items (the input is not modified). Removing
 * an id that is not there is no change, so a revision can be replayed onto a newer base.
 */
export function applyChange(items: KbItems, change: KbChange): KbItems {
  const concepts = [...items.concepts];
  const at = new Map(concepts.map((c, i) => [c.id, i]));
  for (const concept of change.upsert.concepts) {
    const i = at.get(concept.id);
    const existing = i === undefined ? undefined : concepts[i];
    if (i !== undefined && existing) {
      concepts[i] = mergeConcept(existing, concept);
    } else {
      at.set(concept.id, concepts.length);
      concepts.push(concept);
    }
  }

  const gone = new Set(change.remove.relationships);
  const relationships = items.relationships.filter((r) => !gone.has(r.id));
  for (const r of change.upsert.relationships) {
    const same = relationships.findIndex(
      (x) => x.id === r.id || (x.from === r.from && x.to === r.to),
    );
    if (same >= 0) {
      relationships[same] = r;
    } else {
      relationships.push(r);
    }
  }

  const treatments = upsertById(
    items.treatments ?? [],
    change.remove.treatments,
    change.upsert.treatments,
  );
  return {
    concepts,
    relationships,
    complications: upsertById(
      items.complications,
      change.remove.complications,
      change.upsert.complications,
    ),
    questions: upsertById(items.questions, change.remove.questions, change.upsert.questions),
    ...(treatments.length > 0 || items.treatments ? { treatments } : {}),
  };
}

/**
 * A new version of a knowledge base with the change applied. Throws, listing every problem,
 * when the result would break referential integrity; the input is never modified.
 */
export function reviseKnowledgeBase(
  kb: KnowledgeBase,
  change: KbChange,
  kbVersion: string,
): KnowledgeBase {
  const items = applyChange(kb.items, change);
  const problems = checkIntegrity(items);
  if (problems.length > 0) {
    throw new Error(
      `the revision breaks the knowledge base:\n${problems.map((p) => `${p.path}: ${p.message}`).join('\n')}`,
    );
  }
  return { ...kb, kbVersion, items };
}
