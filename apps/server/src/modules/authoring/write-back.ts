import {
  Concept as ConceptSchema,
  type Complication,
  type Concept,
  type Relationship,
  type Treatment,
  type Weight,
} from '@loopdesk/clinical/kb/format.ts';
import { KbChange, isEmptyChange } from '@loopdesk/clinical/kb/revise.ts';
import type { AnnotationSet } from '@loopdesk/contracts/data-preparation.ts';
import type { KnowledgeRevisionSummary } from '@loopdesk/contracts/knowledge-revisions.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';
import type { WriteBack } from '../knowledge/write-back.ts';
import { LINK_OF_CLASS, categoryOf, conceptLookup } from './annotations.ts';

/** The provenance source of what approved document annotations write (docs/authoring.md). */
export const ANNOTATION_SOURCE = 'Loopdesk document annotation';

const lower = (value: string) => value.trim().toLowerCase();
const local = (id: string) => id.slice(id.indexOf(':') + 1);
const slug = (value: string) =>
  lower(value)
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'item';

function freeId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) {
    id = `${base}-${n}`;
  }
  taken.add(id);
  return id;
}

/** A relationship row's free-text weight as a knowledge-base weight, when it reads as one. */
export function weightOf(text: string): Weight | undefined {
  const value = text.trim();
  const level = ['Low', 'Medium', 'High'].find((l) => l.toLowerCase() === value.toLowerCase());
  if (level) {
    return level as Weight;
  }
  const number = Number(value);
  return value !== '' && Number.isFinite(number) && number > 0 && number <= 1 ? number : undefined;
}

/**
 * The change approved annotations of a document make to the knowledge base (pure): each entity's
 * wording (its extract and preferred text) becomes an alias of its concept, so concept search
 * finds the concept by the document's words; each relationship row links the document's
 * condition to the entity's concept, by the concept's class (LINK_OF_CLASS), with the row's
 * category as the relation (`basis`) and the document as provenance. Null when nothing changes.
 */
export function documentWriteBack(
  knowledge: Knowledge,
  document: { key: string; displayName: string; cui: string | null },
  set: AnnotationSet,
): WriteBack | null {
  const lookup = conceptLookup(knowledge);
  const items = knowledge.kb.items;
  const provenance = [
    { source: ANNOTATION_SOURCE, reference: `document ${document.key} (${document.displayName})` },
  ];
  const condition = lookup.resolve(document.cui);
  const summary: KnowledgeRevisionSummary = {
    condition: condition?.canonicalName ?? document.displayName,
    added: [],
    changed: [],
    removed: [],
  };
  const upsertConcepts = new Map<string, Concept>();
  const concept = (base: Concept): Concept => {
    const existing = upsertConcepts.get(base.id);
    if (existing) {
      return existing;
    }
    const fresh = ConceptSchema.parse({
      id: base.id,
      canonicalName: base.canonicalName,
      class: base.class,
      provenance,
    });
    upsertConcepts.set(base.id, fresh);
    return fresh;
  };

  // The document's words for each concept: aliases concept search then finds.
  for (const entity of set.entities) {
    const target = lookup.resolve(entity.CUI);
    if (!target) {
      continue;
    }
    const known = new Set([target.canonicalName, ...target.aliases].map(lower));
    const names = [entity.extract, entity.preferredText ?? '']
      .map((name) => name.trim().replace(/\s+/g, ' '))
      .filter((name) => name.length > 1 && name.length <= 200 && !known.has(lower(name)));
    const fresh = [...new Set(names.map(lower))].map(
      (key) => names.find((name) => lower(name) === key) ?? key,
    );
    const pending = upsertConcepts.get(target.id);
    const already = new Set(pending?.aliases.map(lower) ?? []);
    const added = fresh.filter((name) => !already.has(lower(name)));
    if (added.length > 0) {
      const update = concept(target);
      update.aliases.push(...added);
      summary.added.push(...added.map((name) => `alias '${name}' of ${target.canonicalName}`));
    }
  }

  const relationships: Relationship[] = [];
  const complications: Complication[] = [];
  const treatments: Treatment[] = [];
  if (condition && condition.class === 'condition') {
    const relationshipIds = new Set(items.relationships.map((r) => r.id));
    const complicationIds = new Set(items.complications.map((c) => c.id));
    const treatmentIds = new Set((items.treatments ?? []).map((t) => t.id));
    const seen = new Set<string>();
    for (const row of set.relationships) {
      const entity = set.entities.find((e) => e.id === row.id);
      const target = entity ? lookup.resolve(entity.CUI) : undefined;
      const kind = target ? LINK_OF_CLASS[target.class] : undefined;
      if (!entity || !target || !kind || target.id === condition.id || seen.has(target.id)) {
        continue;
      }
      seen.add(target.id);
      const category = categoryOf(row.category) ?? row.category;
      const weight = weightOf(row.weight);
      const basis = `document annotation: ${category}${
        row.weight.trim() && weight === undefined ? ` (weight '${row.weight.trim()}')` : ''
      }`;
      const words = `${category.toLowerCase()} ${target.canonicalName}`;
      switch (kind) {
        case 'relationship': {
          const pair = items.relationships.find(
            (r) => r.from === condition.id && r.to === target.id,
          );
          if (pair) {
            relationships.push({
              ...pair,
              ...(weight === undefined ? {} : { weight }),
              provenance: [...pair.provenance, ...provenance],
            });
            summary.changed.push(words);
          } else {
            relationships.push({
              id: freeId(`${condition.id}>${local(target.id)}`, relationshipIds),
              from: condition.id,
              to: target.id,
              correlation: 'Positive',
              ...(weight === undefined ? {} : { weight }),
              basis,
              provenance,
            });
            summary.added.push(words);
          }
          break;
        }
        case 'bodySystem':
        case 'anatomicalLocation':
        case 'pathologicalProcess': {
          const list = `${kind}s` as
            'bodySystems' | 'anatomicalLocations' | 'pathologicalProcesses';
          if (!condition[list].includes(target.id)) {
            const update = concept(condition);
            if (!update[list].includes(target.id)) {
              update[list].push(target.id);
            }
            summary.added.push(words);
          }
          break;
        }
        case 'treatment': {
          if (
            !(items.treatments ?? []).some(
              (t) => t.condition === condition.id && t.medication === target.id,
            )
          ) {
            treatments.push({
              id: freeId(`${condition.id}+${local(target.id)}`, treatmentIds),
              condition: condition.id,
              medication: target.id,
              basis,
              provenance,
            });
            summary.added.push(words);
          }
          break;
        }
        case 'complication': {
          if (
            !items.complications.some(
              (c) => c.condition === condition.id && c.concept === target.id,
            )
          ) {
            complications.push({
              id: freeId(`${condition.id}~${slug(target.canonicalName)}`, complicationIds),
              condition: condition.id,
              name: target.canonicalName,
              concept: target.id,
              acuity: target.acuity ?? 'other',
              basis,
              provenance,
            });
            summary.added.push(words);
          }
          break;
        }
      }
    }
  }

  const change = KbChange.parse({
    upsert: { concepts: [...upsertConcepts.values()], relationships, complications, treatments },
  });
  return isEmptyChange(change) ? null : { change, summary };
}
