import type { Concept, ConceptClass } from '@loopdesk/clinical/kb/format.ts';
import {
  DOCUMENT_ENTITY_CATEGORIES,
  type AnnotationSet,
  type DocumentEntity,
  type DocumentEntityCategory,
  type RelationshipRow,
} from '@loopdesk/contracts/data-preparation.ts';
import {
  AUTHORING_MESSAGES,
  type AnnotatedEntity,
  type AnnotatedRelationship,
} from '@loopdesk/contracts/routes/authoring.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';

/** One field that needs fixing, as the 400 answers name them. */
export interface Detail {
  readonly path: string;
  readonly message: string;
}

/** Finds knowledge-base concepts by id (`LD:asthma`) or by UMLS CUI (`C0004096`). */
export interface ConceptLookup {
  resolve(ref: string | null | undefined): Concept | undefined;
}

export function conceptLookup(knowledge: Knowledge): ConceptLookup {
  let byCui: Map<string, Concept> | null = null;
  const cuis = () => {
    if (!byCui) {
      byCui = new Map();
      for (const concept of knowledge.kb.items.concepts) {
        for (const code of [
          ...(concept.cui ? [concept.cui] : []),
          ...concept.codes.filter((c) => c.system === 'UMLS').map((c) => c.code),
        ]) {
          if (!byCui.has(code.toUpperCase())) {
            byCui.set(code.toUpperCase(), concept);
          }
        }
      }
    }
    return byCui;
  };
  return {
    resolve(ref) {
      const key = ref?.trim();
      if (!key) {
        return undefined;
      }
      return knowledge.byId.get(key) ?? cuis().get(key.toUpperCase());
    },
  };
}

/**
 * How an approved relationship is written, by the class of the entity's concept: the knowledge
 * base links a condition to observations (relationships), body systems, anatomical locations and
 * pathological processes (the condition's own lists), medications (treatments) and other
 * conditions (complications). Other classes cannot be linked (docs/authoring.md).
 */
export type LinkKind =
  | 'relationship'
  | 'bodySystem'
  | 'anatomicalLocation'
  | 'pathologicalProcess'
  | 'treatment'
  | 'complication';
export const LINK_OF_CLASS: Partial<Record<ConceptClass, LinkKind>> = {
  observation: 'relationship',
  sign: 'relationship',
  symptom: 'relationship',
  epidemiologicalFactor: 'relationship',
  bodySystem: 'bodySystem',
  anatomicalLocation: 'anatomicalLocation',
  pathologicalProcess: 'pathologicalProcess',
  medication: 'treatment',
  condition: 'complication',
};

const categoryKey = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
const CATEGORY_BY_KEY = new Map<string, DocumentEntityCategory>(
  DOCUMENT_ENTITY_CATEGORIES.map((c) => [categoryKey(c), c]),
);

/** One of the 16 categories, whatever its formatting ('Anatomic location', 'ANATOMIC_LOCATION'). */
export const categoryOf = (value: string): DocumentEntityCategory | undefined =>
  CATEGORY_BY_KEY.get(categoryKey(value));

const quote = (value: string) =>
  `'${value.length > 60 ? `${value.slice(0, 57)}…` : value}'`.replace(/\n/g, '\\n');

export interface SetContext {
  /** The prepared text the offsets count in. */
  readonly text: string;
  readonly lookup: ConceptLookup;
  /** A submission or an approval: every entity complete. */
  readonly complete: boolean;
  /** Where the set is in the body: `body.annotations`. */
  readonly base: string;
}

export interface SetCheck {
  /** Fields that are wrong. */
  readonly problems: Detail[];
  /** Entities not finished yet (only when `complete`). */
  readonly incomplete: Detail[];
}

/**
 * Checks an annotation set against the prepared text and the knowledge base: spans inside the
 * text, not overlapping, each extract the text of its span, every CUI a concept of the knowledge
 * base, relationships naming an entity of the set; for a submission also every entity complete.
 */
export function checkSet(
  set: { entities: readonly AnnotatedEntity[]; relationships: readonly AnnotatedRelationship[] },
  context: SetContext,
): SetCheck {
  const { text, lookup, base, complete } = context;
  const problems: Detail[] = [];
  const incomplete: Detail[] = [];
  const ids = new Map<string, number>();

  set.entities.forEach((entity, i) => {
    const at = `${base}.entities.${i}`;
    if (ids.has(entity.id)) {
      problems.push({
        path: `${at}.id`,
        message: `is the id of entity ${ids.get(entity.id)} too: each entity needs its own`,
      });
    } else {
      ids.set(entity.id, i);
    }
    if (entity.end <= entity.start) {
      problems.push({
        path: `${at}.end`,
        message: `must be after start (${entity.start}): an entity covers at least one character`,
      });
    } else if (entity.end > text.length) {
      problems.push({
        path: `${at}.end`,
        message: `is past the end of the prepared text (${text.length} characters)`,
      });
    } else if (text.slice(entity.start, entity.end) !== entity.extract) {
      problems.push({
        path: `${at}.extract`,
        message: `must be the text at ${entity.start}–${entity.end}, ${quote(text.slice(entity.start, entity.end))}, not ${quote(entity.extract)}`,
      });
    }
    if (entity.CUI && !lookup.resolve(entity.CUI)) {
      problems.push({
        path: `${at}.CUI`,
        message: `${quote(entity.CUI)} is not a concept of the knowledge base: pick one with the concept picker`,
      });
    }
    if (complete) {
      if (!entity.category) {
        incomplete.push({ path: `${at}.category`, message: 'is required' });
      }
      if (!entity.CUI?.trim()) {
        incomplete.push({ path: `${at}.CUI`, message: 'is required: choose a concept' });
      }
      if (entity.state && entity.state !== 'annotated') {
        incomplete.push({
          path: `${at}.state`,
          message: `is ${entity.state}: complete the entity in its form, or remove it`,
        });
      }
    }
  });

  // Spans may not overlap (spec 2 §5 'Unable to annotate entity that already exists.').
  const order = set.entities
    .map((entity, i) => ({ entity, i }))
    .sort((a, b) => a.entity.start - b.entity.start || a.entity.end - b.entity.end);
  let last: { entity: AnnotatedEntity; i: number } | undefined;
  for (const current of order) {
    if (last && current.entity.start < last.entity.end) {
      problems.push({
        path: `${base}.entities.${current.i}.start`,
        message: `overlaps entity ${last.i} (${last.entity.start}–${last.entity.end}): ${AUTHORING_MESSAGES.overlap}`,
      });
    }
    if (!last || current.entity.end > last.entity.end) {
      last = current;
    }
  }

  const linked = new Set<string>();
  set.relationships.forEach((row, i) => {
    const at = `${base}.relationships.${i}`;
    const index = ids.get(row.id);
    const entity = index === undefined ? undefined : set.entities[index];
    if (!entity) {
      problems.push({ path: `${at}.id`, message: 'must be the id of an entity of this set' });
      return;
    }
    if (linked.has(row.id)) {
      problems.push({ path: `${at}.id`, message: 'has a relationship row already' });
    }
    linked.add(row.id);
    if (!categoryOf(row.category)) {
      problems.push({
        path: `${at}.category`,
        message: `must be one of ${DOCUMENT_ENTITY_CATEGORIES.join(', ')}`,
      });
    }
    if (row.entity !== entity.extract) {
      problems.push({
        path: `${at}.entity`,
        message: `must be the extract of its entity, ${quote(entity.extract)}`,
      });
    }
  });
  return { problems, incomplete };
}

/**
 * Why an approved relationship row links nothing in the knowledge base, or null when it links the
 * document's condition to the entity's concept. Such a row is no error (the screen gives every
 * annotated entity a row, the document's own concept included); the approval says which rows
 * linked nothing (`review.notLinked`).
 */
export function unlinkedReason(
  entityCui: string | null | undefined,
  lookup: ConceptLookup,
  document: Concept | undefined,
  documentCui: string | null,
): string | null {
  const concept = lookup.resolve(entityCui);
  if (!concept) {
    return `its concept ${quote(entityCui ?? '')} is not in the knowledge base`;
  }
  if (!document || document.class !== 'condition') {
    return `the document's concept (${documentCui ?? 'no CUI'}) is not a condition of the knowledge base`;
  }
  if (concept.id === document.id) {
    return `it is the document's own concept, ${document.canonicalName}`;
  }
  if (!LINK_OF_CLASS[concept.class]) {
    return `${concept.canonicalName} is a ${concept.class}: the knowledge base links a condition to observations, signs, symptoms, risk factors, body systems, anatomical locations, pathological processes, medications and conditions`;
  }
  return null;
}

/** The data part of a complete entity (spec 2 §3 "On submit only the data part is sent"). */
export function dataOf(entity: AnnotatedEntity, lookup: ConceptLookup): DocumentEntity {
  const concept = lookup.resolve(entity.CUI);
  return {
    id: entity.id,
    start: entity.start,
    end: entity.end,
    extract: entity.extract,
    category: entity.category as DocumentEntityCategory,
    ...(entity.preferredText ? { preferredText: entity.preferredText } : {}),
    conceptName: entity.conceptName || concept?.canonicalName || '',
    CUI: (entity.CUI ?? '').trim(),
    TUI: entity.TUI,
    ...(entity.notes ? { notes: entity.notes } : {}),
  };
}

/** A relationship row with its category in the spec's words. */
export const rowOf = (row: AnnotatedRelationship): RelationshipRow => ({
  id: row.id,
  entity: row.entity,
  category: categoryOf(row.category) ?? row.category,
  weight: row.weight,
});

/** An entity of a stored set as the screen sends it back (for a returned draft). */
export const annotatedOf = (entity: DocumentEntity): AnnotatedEntity => ({
  ...entity,
  state: 'annotated',
});

export type { AnnotationSet };
