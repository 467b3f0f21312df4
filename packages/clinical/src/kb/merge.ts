import type { Code, Concept, KbItems, Provenance } from './format.ts';
import { emptyItems } from './format.ts';

function pushUnique<T>(into: T[], from: readonly T[], key: (item: T) => string): void {
  const seen = new Set(into.map(key));
  for (const item of from) {
    const k = key(item);
    if (!seen.has(k)) {
      seen.add(k);
      into.push(item);
    }
  }
}

const codeKey = (c: Code): string => `${c.system}\u0000${c.code}`;
const provenanceKey = (p: Provenance): string => `${p.source}\u0000${p.reference}`;
const textKey = (s: string): string => s.toLowerCase();

/**
 * Merges concept `b` into concept `a` (same id): the first name, class, CUI and definition win;
 * aliases, parents, locations, codes and provenance are unioned. A name that loses becomes an alias.
 */
export function mergeConcept(a: Concept, b: Concept): Concept {
  const merged: Concept = {
    ...a,
    cui: a.cui ?? b.cui,
    definition: a.definition ?? b.definition,
    acuity: a.acuity ?? b.acuity,
    aliases: [...a.aliases],
    parents: [...a.parents],
    bodySystems: [...a.bodySystems],
    anatomicalLocations: [...a.anatomicalLocations],
    pathologicalProcesses: [...a.pathologicalProcesses],
    codes: [...a.codes],
    provenance: [...a.provenance],
  };
  const names = [b.canonicalName, ...b.aliases].filter(
    (n) => textKey(n) !== textKey(merged.canonicalName),
  );
  pushUnique(merged.aliases, names, textKey);
  pushUnique(merged.parents, b.parents, String);
  pushUnique(merged.bodySystems, b.bodySystems, String);
  pushUnique(merged.anatomicalLocations, b.anatomicalLocations, String);
  pushUnique(merged.pathologicalProcesses, b.pathologicalProcesses, String);
  pushUnique(merged.codes, b.codes, codeKey);
  pushUnique(merged.provenance, b.provenance, provenanceKey);
  return merged;
}

/** Merges the output of several importers: concepts by id, other items by id (first wins). */
export function mergeItems(...parts: readonly KbItems[]): KbItems {
  const out = emptyItems();
  const concepts = new Map<string, Concept>();
  for (const part of parts) {
    for (const concept of part.concepts) {
      const existing = concepts.get(concept.id);
      concepts.set(concept.id, existing ? mergeConcept(existing, concept) : concept);
    }
    pushUnique(out.relationships, part.relationships, (r) => r.id);
    pushUnique(out.complications, part.complications, (c) => c.id);
    pushUnique(out.questions, part.questions, (q) => q.id);
    if (part.treatments) {
      out.treatments ??= [];
      pushUnique(out.treatments, part.treatments, (t) => t.id);
    }
  }
  out.concepts = [...concepts.values()];
  return out;
}
