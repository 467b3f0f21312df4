import type { ConceptClass, KbItems } from './format.ts';
import { KnowledgeBase, OBSERVATION_CLASSES } from './format.ts';

/** One referential-integrity problem, with the path of the item that has it. */
export interface IntegrityProblem {
  path: string;
  message: string;
}

const observationClasses: ReadonlySet<ConceptClass> = new Set(OBSERVATION_CLASSES);

/**
 * Checks what a schema cannot: ids are unique, every reference points at an existing concept of
 * the right class. `external` ids (e.g. parents held by another KB part) count as existing.
 */
export function checkIntegrity(
  items: KbItems,
  external: ReadonlySet<string> = new Set(),
): IntegrityProblem[] {
  const problems: IntegrityProblem[] = [];
  const classOf = new Map<string, ConceptClass>();
  items.concepts.forEach((c, i) => {
    if (classOf.has(c.id)) {
      problems.push({ path: `concepts[${i}]`, message: `duplicate concept id ${c.id}` });
    }
    classOf.set(c.id, c.class);
  });

  const expect = (
    path: string,
    id: string,
    allowed: ReadonlySet<ConceptClass> | ConceptClass | undefined,
  ): void => {
    const cls = classOf.get(id);
    if (cls === undefined) {
      if (!external.has(id)) {
        problems.push({ path, message: `unknown concept ${id}` });
      }
      return;
    }
    const ok =
      allowed === undefined || (typeof allowed === 'string' ? cls === allowed : allowed.has(cls));
    if (!ok) {
      problems.push({ path, message: `${id} is a ${cls}` });
    }
  };

  items.concepts.forEach((c, i) => {
    c.parents.forEach((p, j) => expect(`concepts[${i}].parents[${j}]`, p, undefined));
    c.bodySystems.forEach((p, j) => expect(`concepts[${i}].bodySystems[${j}]`, p, 'bodySystem'));
    c.anatomicalLocations.forEach((p, j) =>
      expect(`concepts[${i}].anatomicalLocations[${j}]`, p, 'anatomicalLocation'),
    );
    c.pathologicalProcesses.forEach((p, j) =>
      expect(`concepts[${i}].pathologicalProcesses[${j}]`, p, 'pathologicalProcess'),
    );
  });

  const uniqueIds = (kind: string, list: readonly { id: string }[]): void => {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (seen.has(item.id)) {
        problems.push({ path: `${kind}[${i}]`, message: `duplicate ${kind} id ${item.id}` });
      }
      seen.add(item.id);
    });
  };
  uniqueIds('relationships', items.relationships);
  uniqueIds('complications', items.complications);
  uniqueIds('questions', items.questions);
  uniqueIds('treatments', items.treatments ?? []);

  const pairs = new Set<string>();
  items.relationships.forEach((r, i) => {
    expect(`relationships[${i}].from`, r.from, 'condition');
    expect(`relationships[${i}].to`, r.to, observationClasses);
    const pair = `${r.from}>${r.to}`;
    if (pairs.has(pair)) {
      problems.push({ path: `relationships[${i}]`, message: `second edge ${pair}` });
    }
    pairs.add(pair);
  });
  items.complications.forEach((c, i) => {
    expect(`complications[${i}].condition`, c.condition, 'condition');
    if (c.concept !== undefined) {
      expect(`complications[${i}].concept`, c.concept, undefined);
    }
  });
  items.questions.forEach((q, i) => {
    q.observations.forEach((o, j) =>
      expect(`questions[${i}].observations[${j}]`, o, observationClasses),
    );
    q.conditions.forEach((o, j) => expect(`questions[${i}].conditions[${j}]`, o, 'condition'));
  });
  (items.treatments ?? []).forEach((t, i) => {
    expect(`treatments[${i}].condition`, t.condition, 'condition');
    expect(`treatments[${i}].medication`, t.medication, 'medication');
  });
  return problems;
}

/**
 * Validates a parsed JSON document as a knowledge base: the schema first, then referential
 * integrity. Throws one error listing every problem, so a bad KB stops a server at start.
 */
export function loadKnowledgeBase(json: unknown): KnowledgeBase {
  const parsed = KnowledgeBase.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`knowledge base does not match the format:\n${lines.join('\n')}`);
  }
  const problems = checkIntegrity(parsed.data.items);
  if (problems.length > 0) {
    const lines = problems.map((p) => `${p.path}: ${p.message}`);
    throw new Error(`knowledge base has broken references:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
