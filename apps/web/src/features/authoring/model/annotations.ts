import {
  DOCUMENT_ENTITY_CATEGORIES,
  PORTAL_SYSTEM,
  type AnnotationProvenance,
  type RelationshipRow,
} from '@loopdesk/contracts/data-preparation.ts';
import type { AutomatedRecognitionResult } from '@loopdesk/contracts/nlp.ts';
import type {
  AnnotatedEntity,
  AnnotationSetInput,
  DocumentEntityCategory,
} from '@loopdesk/contracts/routes/authoring.ts';

/** Spec 2 §9 "Chip colours". */
export const CHIP_COLOURS = {
  automated: '#6200EE',
  manual: '#BB86FC',
  annotated: '#03DAC6',
} as const;

/** Text on each chip colour (4.5:1 at least). */
export const CHIP_TEXT = {
  automated: '#FFFFFF',
  manual: '#000000',
  annotated: '#000000',
} as const;

/** Spec 2 §3 "Entity on the document screen": the state beside the data. */
export type EntityState = keyof typeof CHIP_COLOURS;

/** The legend's chips (spec 2 §2 "Legend chips: Automated, Manual, Annotated"). */
export const LEGEND: readonly { state: EntityState; label: string }[] = [
  { state: 'automated', label: 'Automated' },
  { state: 'manual', label: 'Manual' },
  { state: 'annotated', label: 'Annotated' },
];

/** Spec 2 §8 and §5: every message of the screen, exactly. */
export const MESSAGES = {
  incomplete: 'Please complete or remove incomplete annotations before submitting.',
  exists: 'Unable to annotate entity that already exists.',
  drafted: 'Successfully saved document as DRAFT',
  submitted: 'Successfully submitted document!',
  recognitionFailed: 'Error applying automated entity recognition.',
  conceptsFailed: 'Error loading normalised concepts',
  confirmDelete: 'Are you sure you want to delete this annotation?',
} as const;

export const CATEGORIES: readonly string[] = DOCUMENT_ENTITY_CATEGORIES;

/** A category of the 16, or null while none is chosen. */
const categoryOf = (category: string): DocumentEntityCategory | null =>
  CATEGORIES.includes(category) ? (category as DocumentEntityCategory) : null;

/** The data part of an entity (spec 2 §3); category and CUI may be missing until it is annotated. */
export interface EntityData {
  id: string;
  start: number;
  end: number;
  extract: string;
  category: string;
  preferredText: string;
  conceptName: string;
  CUI: string;
  TUI: { tui: string; description: string }[];
  notes: string;
}

/** An entity on the screen: its data and its state. */
export interface ScreenEntity {
  data: EntityData;
  state: EntityState;
}

/** What the screen holds: entities (sorted by start, never overlapping) and relationship rows. */
export interface AnnotationState {
  entities: readonly ScreenEntity[];
  relationships: readonly RelationshipRow[];
}

export const EMPTY_ANNOTATIONS: AnnotationState = { entities: [], relationships: [] };

const newId = () => crypto.randomUUID();

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

/** Index of the first entity whose end is after `offset` (entities sorted and disjoint). */
export function firstEndingAfter(entities: readonly ScreenEntity[], offset: number): number {
  let low = 0;
  let high = entities.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((entities[mid]?.data.end ?? 0) <= offset) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

/** The entities that share a character with [start, end). */
export function entitiesIn(
  entities: readonly ScreenEntity[],
  start: number,
  end: number,
): ScreenEntity[] {
  const found: ScreenEntity[] = [];
  for (let i = firstEndingAfter(entities, start); i < entities.length; i += 1) {
    const entity = entities[i];
    if (!entity || entity.data.start >= end) {
      break;
    }
    found.push(entity);
  }
  return found;
}

/** The entity holding `offset`, if any. */
export function entityAt(entities: readonly ScreenEntity[], offset: number) {
  const entity = entities[firstEndingAfter(entities, offset)];
  return entity && entity.data.start <= offset ? entity : undefined;
}

/** "Formatted" category of a relationship row (spec 2 §3): its words in upper case. */
export const formatCategory = (category: string) => category.toUpperCase();

/** Outcome of turning a selection into a manual entity. */
export type SelectionOutcome =
  { kind: 'ignored' } | { kind: 'exists' } | { kind: 'ok'; start: number; end: number };

/**
 * Spec 2 §5: an empty selection is ignored; leading and trailing white space is left out; a
 * selection that shares characters with an entity already there spans more than one segment:
 * 'Unable to annotate entity that already exists.'.
 */
export function checkSelection(
  text: string,
  entities: readonly ScreenEntity[],
  rawStart: number,
  rawEnd: number,
): SelectionOutcome {
  let start = Math.max(0, Math.min(rawStart, rawEnd));
  let end = Math.min(text.length, Math.max(rawStart, rawEnd));
  while (start < end && /\s/.test(text[start] ?? '')) {
    start += 1;
  }
  while (end > start && /\s/.test(text[end - 1] ?? '')) {
    end -= 1;
  }
  if (start >= end) {
    return { kind: 'ignored' };
  }
  if (entitiesIn(entities, start, end).length > 0) {
    return { kind: 'exists' };
  }
  return { kind: 'ok', start, end };
}

const blankData = (text: string, start: number, end: number): EntityData => ({
  id: newId(),
  start,
  end,
  extract: text.slice(start, end),
  category: '',
  preferredText: '',
  conceptName: '',
  CUI: '',
  TUI: [],
  notes: '',
});

/** Inserts an entity, keeping the list sorted by start. */
function inserted(entities: readonly ScreenEntity[], entity: ScreenEntity): ScreenEntity[] {
  const at = firstEndingAfter(entities, entity.data.start);
  return [...entities.slice(0, at), entity, ...entities.slice(at)];
}

/** A manual entity from a checked selection, with the category the menu picked (spec 2 §4). */
export function addManual(
  state: AnnotationState,
  text: string,
  start: number,
  end: number,
  category: string,
): { state: AnnotationState; entity: ScreenEntity } {
  const entity: ScreenEntity = {
    data: { ...blankData(text, start, end), category },
    state: 'manual',
  };
  return { state: { ...state, entities: inserted(state.entities, entity) }, entity };
}

/**
 * The automated entities of a recognition result (spec 2 §3, §4): the best concept's name and
 * code, the semantic types as the TUI list. Entities overlapping one kept before are left out
 * (the screen's entities never overlap).
 */
export function automatedEntities(
  text: string,
  result: AutomatedRecognitionResult,
): ScreenEntity[] {
  const kept: ScreenEntity[] = [];
  const sorted = [...result.entities].sort((a, b) => a.start - b.start || b.end - a.end);
  for (const found of sorted) {
    const start = Math.max(0, found.start);
    const end = Math.min(text.length, found.end);
    const last = kept.at(-1);
    if (start >= end || (last && overlaps(last.data, { start, end }))) {
      continue;
    }
    const concept = found.concepts.find((c) => c.bestMatch) ?? found.concepts[0];
    kept.push({
      data: {
        ...blankData(text, start, end),
        conceptName: concept?.coding.display ?? '',
        CUI: concept?.coding.code ?? '',
        TUI: tuisOf(found.semanticTypes),
      },
      state: 'automated',
    });
  }
  return kept;
}

/** Spec 2 §4: the checkbox is disabled while any entity exists. */
export const recognitionDisabled = (state: AnnotationState) => state.entities.length > 0;

/** Spec 2 §4 "Unchecking automated recognition deletes all automated entities". */
export function removeAutomated(state: AnnotationState): AnnotationState {
  const entities = state.entities.filter((e) => e.state !== 'automated');
  const ids = new Set(entities.map((e) => e.data.id));
  return { entities, relationships: state.relationships.filter((r) => ids.has(r.id)) };
}

/** Spec 2 §4 "Reset clears all entities and relationships". */
export const reset = (): AnnotationState => EMPTY_ANNOTATIONS;

/** Deletes one entity and its relationship row. */
export function removeEntity(state: AnnotationState, id: string): AnnotationState {
  return {
    entities: state.entities.filter((e) => e.data.id !== id),
    relationships: state.relationships.filter((r) => r.id !== id),
  };
}

/** Whether the edit form may be saved (spec 2 §5: category and CUI required). */
export const isComplete = (data: EntityData) =>
  CATEGORIES.includes(data.category) && data.CUI.trim() !== '';

/**
 * The edit form submitted: the entity becomes annotated (spec 2 §4) and, when `link`, has a relationship row
 * (spec 2 §3: id = the entity's id, its extract, its formatted category, the weight kept).
 */
export function annotate(state: AnnotationState, data: EntityData, link = true): AnnotationState {
  const entities = state.entities.map((e) =>
    e.data.id === data.id ? { data, state: 'annotated' as const } : e,
  );
  if (!link) {
    return { entities, relationships: state.relationships.filter((r) => r.id !== data.id) };
  }
  const row: RelationshipRow = {
    id: data.id,
    entity: data.extract,
    category: formatCategory(data.category),
    weight: state.relationships.find((r) => r.id === data.id)?.weight ?? '',
  };
  const exists = state.relationships.some((r) => r.id === data.id);
  const relationships = exists
    ? state.relationships.map((r) => (r.id === data.id ? row : r))
    : [...state.relationships, row].sort(
        (a, b) =>
          (entities.find((e) => e.data.id === a.id)?.data.start ?? 0) -
          (entities.find((e) => e.data.id === b.id)?.data.start ?? 0),
      );
  return { entities, relationships };
}

/** Sets a relationship row's weight (free text). */
export function setWeight(state: AnnotationState, id: string, weight: string): AnnotationState {
  return {
    ...state,
    relationships: state.relationships.map((r) => (r.id === id ? { ...r, weight } : r)),
  };
}

/** Spec 2 §5: submitting is blocked while any entity is still manual or automated. */
export const canSubmit = (state: AnnotationState) =>
  state.entities.every((e) => e.state === 'annotated');

export const provenanceNow = (source: string): AnnotationProvenance => ({
  source,
  createdOn: new Date().toISOString(),
  system: PORTAL_SYSTEM,
});

/** What SUBMIT DOCUMENT sends: only the data part of each entity (spec 2 §3). */
export function submittedSet(state: AnnotationState, source: string): AnnotationSetInput {
  return {
    entities: state.entities.map(({ data }): AnnotatedEntity => {
      const { preferredText, conceptName, notes, category, ...rest } = data;
      return {
        ...rest,
        category: categoryOf(category),
        ...(preferredText ? { preferredText } : {}),
        ...(conceptName ? { conceptName } : {}),
        ...(notes ? { notes } : {}),
      };
    }),
    relationships: [...state.relationships],
    provenance: provenanceNow(source),
  };
}

/** What SAVE AS DRAFT sends: the entities with their state, so unfinished ones come back as they were. */
export function draftSet(state: AnnotationState, source: string): AnnotationSetInput {
  return {
    entities: state.entities.map(({ data, state: entityState }) => ({
      ...data,
      category: categoryOf(data.category),
      state: entityState,
    })),
    relationships: [...state.relationships],
    provenance: provenanceNow(source),
  };
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** Reads an entity stored in a draft or a submitted set back onto the screen. */
function readEntity(text: string, raw: Record<string, unknown>, fallback: EntityState) {
  const start = Number(raw.start);
  const end = Number(raw.end);
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > text.length) {
    return undefined;
  }
  if (start >= end) {
    return undefined;
  }
  const state: EntityState =
    raw.state === 'automated' || raw.state === 'manual' || raw.state === 'annotated'
      ? raw.state
      : fallback;
  const tuis = Array.isArray(raw.TUI) ? (raw.TUI as unknown[]) : [];
  return {
    data: {
      id: str(raw.id) || newId(),
      start,
      end,
      extract: text.slice(start, end),
      category: str(raw.category),
      preferredText: str(raw.preferredText),
      conceptName: str(raw.conceptName),
      CUI: str(raw.CUI),
      TUI: tuis.flatMap((t) =>
        t && typeof t === 'object' && 'tui' in t
          ? [
              {
                tui: str(t.tui),
                description: str((t as { description?: unknown }).description),
              },
            ]
          : [],
      ),
      notes: str(raw.notes),
    },
    state,
  } satisfies ScreenEntity;
}

/** A stored set (draft or submitted) as screen state: sorted, overlapping ones left out. */
export function stateFromSet(
  text: string,
  set: { entities: readonly Record<string, unknown>[]; relationships: readonly RelationshipRow[] },
  fallback: EntityState,
): AnnotationState {
  const read = set.entities
    .flatMap((raw) => {
      const entity = readEntity(text, raw, fallback);
      return entity ? [entity] : [];
    })
    .sort((a, b) => a.data.start - b.data.start);
  const entities: ScreenEntity[] = [];
  for (const entity of read) {
    const last = entities.at(-1);
    if (!last || !overlaps(last.data, entity.data)) {
      entities.push(entity);
    }
  }
  const ids = new Set(entities.map((e) => e.data.id));
  return { entities, relationships: set.relationships.filter((r) => ids.has(r.id)) };
}

/**
 * Spec 2 §4: on opening an annotation-draft job the draft is restored only when its provenance
 * system is the portal's ('decoded-portal').
 */
export const draftRestorable = (draft: { provenance: { system: string } } | null | undefined) =>
  draft?.provenance.system === PORTAL_SYSTEM;

/** UMLS semantic type ids of the semantic type names the services answer with. */
const TUI_OF: Readonly<Record<string, string>> = {
  'Disease or Syndrome': 'T047',
  Finding: 'T033',
  'Sign or Symptom': 'T184',
  'Pharmacologic Substance': 'T121',
  'Body Location or Region': 'T029',
  'Body System': 'T022',
  'Pathologic Function': 'T046',
  'Laboratory Procedure': 'T059',
  'Diagnostic Procedure': 'T060',
  'Therapeutic or Preventive Procedure': 'T061',
  Activity: 'T052',
  'Intellectual Product': 'T170',
  'Medical Device': 'T074',
  'Organism Attribute': 'T032',
  'Temporal Concept': 'T079',
};

/** The TUI list of semantic type names (the id left empty for a name UMLS does not list here). */
export const tuisOf = (types: readonly string[]) =>
  [...new Set(types)].map((description) => ({ tui: TUI_OF[description] ?? '', description }));

/** The CUI of a concept option: its UMLS code when it has one, else its knowledge-base id. */
export const cuiOf = (option: {
  conceptId: string;
  sources: readonly { system: string; code: string }[];
}) => option.sources.find((s) => s.system.toUpperCase() === 'UMLS')?.code ?? option.conceptId;
