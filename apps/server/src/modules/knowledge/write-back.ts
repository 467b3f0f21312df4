import { z } from 'zod';
import {
  Concept as ConceptSchema,
  OBSERVATION_CLASSES,
  type Complication,
  type Concept,
  type ConceptClass,
  type Relationship,
  type Treatment,
} from '@loopdesk/clinical/kb/format.ts';
import { KbChange, isEmptyChange } from '@loopdesk/clinical/kb/revise.ts';
import { isStruck, type AsyncTask, type AsyncTaskType } from '@loopdesk/contracts/async-jobs.ts';
import { type KnowledgeRevisionSummary } from '@loopdesk/contracts/knowledge-revisions.ts';
import type { Knowledge } from './knowledge.ts';

/**
 * Knowledge write-back (issue 7 item 5): what a completed task of the observations,
 * complications, medications or symptoms pipeline changes in the clinical knowledge base. Pure:
 * the task and the served knowledge in, a change (and its summary in words) out.
 */
export interface WriteBack {
  change: KbChange;
  summary: KnowledgeRevisionSummary;
}

/** The task types whose completion writes back. */
export const WRITE_BACK_TYPES: ReadonlySet<AsyncTaskType> = new Set<AsyncTaskType>([
  'condition.observations',
  'condition.complications',
  'condition.medications',
  'condition.symptoms',
]);

export const WRITE_BACK_SOURCE = 'Loopdesk async jobs';

const OBSERVATION: ReadonlySet<ConceptClass> = new Set(OBSERVATION_CLASSES);
const CONDITION: ReadonlySet<ConceptClass> = new Set(['condition']);
const MEDICATION: ReadonlySet<ConceptClass> = new Set(['medication']);
const SYMPTOM: ReadonlySet<ConceptClass> = new Set(['symptom', 'sign']);
const CUI = /^C\d{7}$/;

const text = z.string().trim().min(1);
const ObservationItem = z.object({
  id: z.string(),
  name: text,
  cui: z.string().nullish(),
  observationClass: z.string().nullish(),
  correlation: z.enum(['Positive', 'Negative']).catch('Positive'),
  weight: z.enum(['Low', 'Medium', 'High']).catch('Medium'),
});
const NamedItem = z.object({ id: z.string(), name: text, cui: z.string().nullish() });
const TextItem = z.object({ id: z.string(), text });

/** The items of a task list that have the shape; anything else is skipped. */
function itemsOf<T>(schema: z.ZodType<T>, value: unknown): T[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const lower = (value: string) => value.trim().toLowerCase();
/** 'Lung abscess (left)' → 'lung-abscess-left'. */
const slug = (value: string) =>
  lower(value)
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'item';
/** The part of a concept id after its prefix: 'LD:fever' → 'fever'. */
const local = (id: string) => id.slice(id.indexOf(':') + 1);

/**
 * Ids the finished task strikes out of `items` (its final list): the items marked `removed`, and,
 * for tasks that ran before marks were kept, ids a submission removed under `key` (e.g.
 * `complications_removed`) that the list no longer holds at all. An item a later step kept
 * after all is in the list unmarked, so it stays.
 */
function removedIds(task: AsyncTask, key: string, items: unknown): Set<string> {
  const ids = new Set<string>();
  const present = new Set<string>();
  for (const item of Array.isArray(items) ? (items as unknown[]) : []) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id === 'string') {
      present.add(id);
      if (isStruck(item)) {
        ids.add(id);
      }
    }
  }
  for (const entry of task.changeLog) {
    if (entry.action !== 'SUBMITTED' || typeof entry.data !== 'object' || entry.data === null) {
      continue;
    }
    const list = (entry.data as Record<string, unknown>)[key];
    for (const id of Array.isArray(list) ? (list as unknown[]) : []) {
      if (typeof id === 'string' && !present.has(id)) {
        ids.add(id);
      }
    }
  }
  return ids;
}

/** The items of a task list that are not struck out and have the shape. */
const liveItems = <T>(schema: z.ZodType<T>, value: unknown): T[] =>
  itemsOf(schema, Array.isArray(value) ? (value as unknown[]).filter((i) => !isStruck(i)) : []);

/** Concepts found in the served knowledge, or created by this write-back. */
class Concepts {
  readonly created: Concept[] = [];
  private readonly takenIds = new Set<string>();

  constructor(
    private readonly knowledge: Knowledge,
    private readonly task: AsyncTask,
  ) {}

  get provenance() {
    return [{ source: WRITE_BACK_SOURCE, reference: `task ${this.task.id}` }];
  }

  private all(): Concept[] {
    return [...this.knowledge.kb.items.concepts, ...this.created];
  }

  /** A concept by its id or its CUI (screens send either), of one of `classes`. */
  resolve(ref: unknown, classes?: ReadonlySet<ConceptClass>): Concept | undefined {
    const key = str(ref);
    if (!key) {
      return undefined;
    }
    const found =
      this.knowledge.byId.get(key) ??
      this.all().find((c) => c.id === key || (c.cui !== undefined && c.cui === key));
    return found && (!classes || classes.has(found.class)) ? found : undefined;
  }

  /** A concept whose canonical name or an alias is `name` (any case), of one of `classes`. */
  named(name: string, classes?: ReadonlySet<ConceptClass>): Concept | undefined {
    const wanted = lower(name);
    return this.all().find(
      (c) =>
        (!classes || classes.has(c.class)) &&
        (lower(c.canonicalName) === wanted || c.aliases.some((a) => lower(a) === wanted)),
    );
  }

  /** A new concept named `name`, with a free `LD:` id. */
  create(name: string, cls: ConceptClass, cui?: unknown): Concept {
    let id = `LD:${slug(name)}`;
    if (this.knowledge.byId.has(id) || this.takenIds.has(id)) {
      id = `${id}-${this.task.id.slice(0, 8)}`;
    }
    this.takenIds.add(id);
    const code = str(cui);
    const concept = ConceptSchema.parse({
      id,
      canonicalName: name.trim(),
      class: cls,
      ...(CUI.test(code) ? { cui: code, codes: [{ system: 'UMLS', code }] } : {}),
      provenance: this.provenance,
    });
    this.created.push(concept);
    return concept;
  }

  /** The task's condition: its KB concept, a new condition concept, or none when unnamed. */
  condition(): Concept | undefined {
    const facts = this.task.condition;
    const name = str(this.task.data.condition) || str(facts.name);
    const found =
      this.resolve(facts.conceptId, CONDITION) ??
      this.resolve(this.task.data.cui, CONDITION) ??
      (name ? this.named(name, CONDITION) : undefined);
    if (found) {
      return found;
    }
    if (!name) {
      return undefined;
    }
    return this.create(name, 'condition', this.task.data.cui);
  }
}

/** A free id `base`, `base-2`… among `taken`. */
function freeId(base: string, taken: ReadonlySet<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) {
    id = `${base}-${n}`;
  }
  return id;
}

/** The change a completed task makes to the knowledge base, or null when it changes nothing. */
export function writeBackOf(task: AsyncTask, knowledge: Knowledge): WriteBack | null {
  if (!WRITE_BACK_TYPES.has(task.type)) {
    return null;
  }
  const concepts = new Concepts(knowledge, task);
  const condition = concepts.condition();
  if (!condition) {
    // Tasks of these pipelines are made with a condition; one without has nothing to attach to.
    return null;
  }
  const items = knowledge.kb.items;
  const basis = `approved in the ${task.type} pipeline`;
  const upsert = {
    relationships: [] as Relationship[],
    complications: [] as Complication[],
    treatments: [] as Treatment[],
  };
  const remove = {
    relationships: [] as string[],
    complications: [] as string[],
    treatments: [] as string[],
  };
  const summary: KnowledgeRevisionSummary = {
    condition: condition.canonicalName,
    added: [],
    changed: [],
    removed: [],
  };
  const nameOf = (id: string) => knowledge.byId.get(id)?.canonicalName ?? id;
  const relationships = items.relationships.filter((r) => r.from === condition.id);
  const relationshipIds = new Set(items.relationships.map((r) => r.id));
  const newRelationship = (
    to: Concept,
    correlation: Relationship['correlation'],
    weight: Relationship['weight'],
  ): Relationship => {
    const id = freeId(`${condition.id}>${local(to.id)}`, relationshipIds);
    relationshipIds.add(id);
    return {
      id,
      from: condition.id,
      to: to.id,
      correlation,
      weight,
      basis,
      provenance: concepts.provenance,
    };
  };

  switch (task.type) {
    case 'condition.observations': {
      const byId = new Map(relationships.map((r) => [r.id, r]));
      const removed = [
        ...removedIds(task, 'removedObservations', task.condition.observations),
      ].filter((id) => byId.has(id));
      const seen = new Set<string>();
      for (const o of liveItems(ObservationItem, task.condition.observations)) {
        const existing = byId.get(o.id);
        const cls = OBSERVATION.has(o.observationClass as ConceptClass)
          ? (o.observationClass as ConceptClass)
          : 'observation';
        const target =
          (existing ? knowledge.byId.get(existing.to) : undefined) ??
          concepts.resolve(o.cui, OBSERVATION) ??
          concepts.named(o.name, OBSERVATION) ??
          concepts.create(o.name, cls, o.cui);
        if (seen.has(target.id)) {
          continue;
        }
        seen.add(target.id);
        const pair = existing ?? relationships.find((r) => r.to === target.id);
        if (pair && removed.includes(pair.id)) {
          continue;
        }
        if (pair && pair.correlation === o.correlation && pair.weight === o.weight) {
          continue;
        }
        const words = `observation ${target.canonicalName} (${o.correlation}, ${o.weight})`;
        if (pair) {
          upsert.relationships.push({
            ...pair,
            correlation: o.correlation,
            weight: o.weight,
            provenance: [...pair.provenance, ...concepts.provenance],
          });
          summary.changed.push(words);
        } else {
          upsert.relationships.push(newRelationship(target, o.correlation, o.weight));
          summary.added.push(words);
        }
      }
      for (const id of removed) {
        remove.relationships.push(id);
        summary.removed.push(`observation ${nameOf(byId.get(id)?.to ?? id)}`);
      }
      break;
    }
    case 'condition.complications': {
      const own = items.complications.filter((c) => c.condition === condition.id);
      const ids = new Set(items.complications.map((c) => c.id));
      const removed = [
        ...removedIds(task, 'complications_removed', task.condition.complications),
      ].filter((id) => own.some((c) => c.id === id));
      const kept = own.filter((c) => !removed.includes(c.id));
      for (const c of liveItems(NamedItem, task.condition.complications)) {
        if (own.some((x) => x.id === c.id)) {
          continue;
        }
        const concept =
          concepts.resolve(c.cui) ??
          concepts.named(c.name, CONDITION) ??
          concepts.named(c.name, OBSERVATION) ??
          concepts.create(c.name, 'condition', c.cui);
        const duplicate = [...kept, ...upsert.complications].some(
          (x) => x.concept === concept.id || lower(x.name) === lower(c.name),
        );
        if (duplicate) {
          continue;
        }
        const id = freeId(`${condition.id}~${slug(c.name)}`, ids);
        ids.add(id);
        upsert.complications.push({
          id,
          condition: condition.id,
          name: c.name,
          concept: concept.id,
          acuity: concept.acuity ?? 'other',
          basis,
          provenance: concepts.provenance,
        });
        summary.added.push(`complication ${c.name}`);
      }
      for (const id of removed) {
        remove.complications.push(id);
        summary.removed.push(`complication ${own.find((c) => c.id === id)?.name ?? id}`);
      }
      break;
    }
    case 'condition.medications': {
      const all = items.treatments ?? [];
      const own = all.filter((t) => t.condition === condition.id);
      const ids = new Set(all.map((t) => t.id));
      const removed = [
        ...removedIds(task, 'medications_removed', task.condition.medications),
      ].filter((id) => own.some((t) => t.id === id));
      const kept = own.filter((t) => !removed.includes(t.id));
      for (const m of liveItems(TextItem, task.condition.medications)) {
        if (own.some((t) => t.id === m.id)) {
          continue;
        }
        const medication =
          concepts.named(m.text, MEDICATION) ?? concepts.create(m.text, 'medication');
        if ([...kept, ...upsert.treatments].some((t) => t.medication === medication.id)) {
          continue;
        }
        const id = freeId(`${condition.id}+${local(medication.id)}`, ids);
        ids.add(id);
        upsert.treatments.push({
          id,
          condition: condition.id,
          medication: medication.id,
          basis,
          provenance: concepts.provenance,
        });
        summary.added.push(`medication ${medication.canonicalName}`);
      }
      for (const id of removed) {
        remove.treatments.push(id);
        summary.removed.push(
          `medication ${nameOf(own.find((t) => t.id === id)?.medication ?? id)}`,
        );
      }
      break;
    }
    case 'condition.symptoms': {
      // Items are the condition's relationships (by relationship id or observation id).
      const own = relationships.filter((r) => r.correlation === 'Positive');
      const find = (id: string) => own.find((r) => r.id === id || r.to === id);
      const removed = [
        ...new Set(
          [...removedIds(task, 'symptoms_removed', task.condition.symptoms)].flatMap(
            (id) => find(id)?.id ?? [],
          ),
        ),
      ];
      for (const s of liveItems(TextItem, task.condition.symptoms)) {
        if (find(s.id)) {
          continue;
        }
        const target =
          concepts.named(s.text, SYMPTOM) ??
          concepts.named(s.text, OBSERVATION) ??
          concepts.create(s.text, 'symptom');
        const pair = relationships.find((r) => r.to === target.id);
        if (
          (pair && !removed.includes(pair.id)) ||
          upsert.relationships.some((r) => r.to === target.id)
        ) {
          continue;
        }
        upsert.relationships.push(newRelationship(target, 'Positive', 'Medium'));
        summary.added.push(`symptom ${target.canonicalName}`);
      }
      for (const id of removed) {
        remove.relationships.push(id);
        summary.removed.push(`symptom ${nameOf(own.find((r) => r.id === id)?.to ?? id)}`);
      }
      break;
    }
    case 'text.rephrase':
    case 'text.annotation':
    case 'entity.normalisation':
    case 'observation.questions':
    case 'clinical.location':
    case 'clinical.differential':
    case 'conversation.annotation':
      return null;
  }

  // Only the concepts something points at (a condition with nothing approved adds nothing).
  const used = new Set([
    ...upsert.relationships.flatMap((r) => [r.from, r.to]),
    ...upsert.complications.flatMap((c) => [c.condition, c.concept ?? '']),
    ...upsert.treatments.flatMap((t) => [t.condition, t.medication]),
  ]);
  const change = KbChange.parse({
    upsert: { ...upsert, concepts: concepts.created.filter((c) => used.has(c.id)) },
    remove,
  });
  if (isEmptyChange(change)) {
    return null;
  }
  return { change, summary };
}
