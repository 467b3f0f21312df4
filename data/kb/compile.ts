import type {
  Code,
  Complication,
  Concept,
  KnowledgeBase,
  Provenance,
  Question,
  Relationship,
  Treatment,
  WeightLevel,
} from '@loopdesk/clinical/kb/format.ts';
import { FORMAT_VERSION } from '@loopdesk/clinical/kb/format.ts';
import { loadKnowledgeBase } from '@loopdesk/clinical/kb/integrity.ts';
import type { KbSource } from './source/index.ts';
import { withAliasSources } from './aliases.ts';
import { parsePhraseRules } from '@loopdesk/clinical/kb/phrase-rules.ts';
import type { ConditionDef, ObservationDef, StructureDef, TreatmentDef } from './source/types.ts';

/** A concept of an open ontology that a KB concept was matched to (see link.ts). */
export interface OntologyLink {
  /** 'Human Disease Ontology', 'Symptom Ontology' or 'MeSH'. */
  source: string;
  /** Its id there: DOID:552, SYMP:0000613, MESH:D005334. */
  id: string;
  label: string;
  /** The UMLS CUI the ontology gives it. */
  cui?: string;
  /** Its cross-references (ICD10CM, SNOMEDCT_US, MESH…). */
  codes: Code[];
  /** Its other names there (the Symptom Ontology's exact synonyms, MeSH's natural order). */
  synonyms?: string[];
}

/** What link.ts found in the open ontologies for the authored concepts and relationships. */
export interface OntologyLinks {
  /** By KB concept id. */
  concepts: Record<string, OntologyLink[]>;
  /** By relationship id: the Disease Ontology's disease-symptom pairs that state the same edge. */
  relationships: Record<string, string[]>;
}

export const AUTHORED: Provenance = {
  source: 'Loopdesk authored',
  reference: 'general medical knowledge',
};
export const DO_PAIR_SOURCE = 'Human Disease Ontology disease-symptom';
const POSITIVE_BASIS = 'clinician-authored: typical presentation';
const NEGATIVE_BASIS = 'clinician-authored: finding that argues against';
const COMPLICATION_BASIS = 'clinician-authored: recognised complication (red flag)';
const TREATMENT_BASIS = 'clinician-authored: commonly used medication';
const LEVELS: Record<string, WeightLevel> = { H: 'High', M: 'Medium', L: 'Low' };

export const systemId = (id: string) => `LD:system/${id}`;
export const locationId = (id: string) => `LD:location/${id}`;
export const processId = (id: string) => `LD:process/${id}`;
export const conceptId = (id: string) => `LD:${id}`;

/** Parses `'fever:H cough:M'` into observation ids and weight levels. */
export function parseFindings(
  text: string | undefined,
  where: string,
): { id: string; weight: WeightLevel }[] {
  if (text === undefined || text.trim() === '') {
    return [];
  }
  return text
    .trim()
    .split(/\s+/)
    .map((entry) => {
      const match = /^([a-z0-9][a-z0-9-]*):([HML])$/.exec(entry);
      const level = match?.[2] === undefined ? undefined : LEVELS[match[2]];
      if (!match?.[1] || !level) {
        throw new Error(`${where}: '${entry}' is not 'observation-id:H|M|L'`);
      }
      return { id: match[1], weight: level };
    });
}

/**
 * The code of an ontology id: DOID and SYMP codes are written with their prefix ('DOID:552', as
 * those ontologies write them), MeSH descriptors without ('D015746', as MeSH does).
 */
function ontologyCode(id: string): Code {
  const colon = id.indexOf(':');
  const prefix = id.slice(0, colon);
  return prefix === 'MESH'
    ? { system: 'MESH', code: id.slice(colon + 1) }
    : { system: prefix, code: id };
}

function uniqueCodes(codes: readonly Code[]): Code[] {
  const seen = new Set<string>();
  return codes.filter((code) => {
    const key = `${code.system}|${code.code}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/** A concept with its CUI, codes and provenance joined from the authored part and its links. */
function concept(
  id: string,
  def: { name: string; cui?: string; aka?: string[]; def?: string },
  cls: Concept['class'],
  links: OntologyLinks,
  extra: Partial<Concept> = {},
): Concept {
  const linked = links.concepts[id] ?? [];
  const cui = def.cui ?? linked.find((link) => link.cui !== undefined)?.cui;
  const codes = uniqueCodes([
    ...(cui === undefined ? [] : [{ system: 'UMLS', code: cui }]),
    ...linked.flatMap((link) => [
      ontologyCode(link.id),
      ...link.codes.filter((code) => code.system !== 'UMLS'),
    ]),
  ]);
  return {
    id,
    ...(cui === undefined ? {} : { cui }),
    canonicalName: def.name,
    aliases: def.aka ?? [],
    class: cls,
    ...(def.def === undefined ? {} : { definition: def.def }),
    parents: [],
    bodySystems: [],
    anatomicalLocations: [],
    pathologicalProcesses: [],
    ...extra,
    codes,
    provenance: [AUTHORED, ...linked.map((link) => ({ source: link.source, reference: link.id }))],
  };
}

function structure(
  defs: readonly StructureDef[],
  toId: (id: string) => string,
  cls: Concept['class'],
  links: OntologyLinks,
) {
  return defs.map((def) => concept(toId(def.id), def, cls, links));
}

function observation(
  def: ObservationDef,
  links: OntologyLinks,
  broader: readonly string[] = [],
): Concept {
  return concept(conceptId(def.id), def, def.cls, links, {
    parents: broader.map(conceptId),
    bodySystems: (def.sys ?? []).map(systemId),
    anatomicalLocations: (def.loc ?? []).map(locationId),
  });
}

function condition(def: ConditionDef, links: OntologyLinks): Concept {
  return concept(conceptId(def.id), def, 'condition', links, {
    bodySystems: def.sys.map(systemId),
    anatomicalLocations: (def.loc ?? []).map(locationId),
    pathologicalProcesses: (def.proc ?? []).map(processId),
    acuity: def.acuity,
    prevalence: def.prev,
  });
}

function relationships(def: ConditionDef, links: OntologyLinks): Relationship[] {
  const from = conceptId(def.id);
  const edges = [
    ...parseFindings(def.for, `${def.id}.for`).map((f) => ({
      ...f,
      correlation: 'Positive' as const,
    })),
    ...parseFindings(def.against, `${def.id}.against`).map((f) => ({
      ...f,
      correlation: 'Negative' as const,
    })),
  ];
  return edges.map((edge) => {
    const id = `${from}>${edge.id}`;
    const pairs = links.relationships[id] ?? [];
    return {
      id,
      from,
      to: conceptId(edge.id),
      correlation: edge.correlation,
      weight: edge.weight,
      basis: edge.correlation === 'Positive' ? POSITIVE_BASIS : NEGATIVE_BASIS,
      provenance: [AUTHORED, ...pairs.map((reference) => ({ source: DO_PAIR_SOURCE, reference }))],
    };
  });
}

function complications(def: ConditionDef): Complication[] {
  return (def.comp ?? []).map((comp) => ({
    id: `${conceptId(def.id)}~${comp.id}`,
    condition: conceptId(def.id),
    name: comp.name,
    ...(comp.concept === undefined ? {} : { concept: conceptId(comp.concept) }),
    acuity: comp.acuity,
    question: comp.q,
    basis: COMPLICATION_BASIS,
    provenance: [AUTHORED],
  }));
}

function treatments(def: TreatmentDef): Treatment[] {
  return def.meds.map((med) => ({
    id: `${conceptId(def.condition)}+${med}`,
    condition: conceptId(def.condition),
    medication: conceptId(med),
    basis: TREATMENT_BASIS,
    provenance: [AUTHORED],
  }));
}

/**
 * The problems of the observation hierarchy: each id must name an authored observation, and no
 * observation may be (through others) broader than itself.
 */
export function hierarchyProblems(
  observations: readonly ObservationDef[],
  broader: Readonly<Record<string, readonly string[]>>,
): string[] {
  const known = new Set(observations.map((o) => o.id));
  const problems: string[] = [];
  for (const [narrow, parents] of Object.entries(broader)) {
    for (const id of [narrow, ...parents]) {
      if (!known.has(id)) {
        problems.push(`broader observations: '${id}' (under '${narrow}') is not an observation`);
      }
    }
  }
  const cyclic = (id: string, path: readonly string[]): string | undefined => {
    if (path.includes(id)) {
      return [...path, id].join(' → ');
    }
    for (const parent of broader[id] ?? []) {
      const found = cyclic(parent, [...path, id]);
      if (found) {
        return found;
      }
    }
    return undefined;
  };
  for (const narrow of Object.keys(broader)) {
    const cycle = cyclic(narrow, []);
    if (cycle) {
      problems.push(`broader observations: a cycle ${cycle}`);
      break;
    }
  }
  return problems;
}

/**
 * Builds the knowledge base from its authored source and the ontology links, and checks it
 * (schema and referential integrity): a broken source throws with every problem.
 */
export function compileKb(source: KbSource, links: OntologyLinks): KnowledgeBase {
  const problems = hierarchyProblems(source.observations, source.broader);
  if (problems.length > 0) {
    throw new Error(`data/kb/source has problems:\n${problems.join('\n')}`);
  }
  const questions: Question[] = source.questions.map((q) => ({
    id: `LD:q/${q.id}`,
    content: q.content,
    observations: q.obs.map(conceptId),
    conditions: (q.cond ?? []).map(conceptId),
    provenance: [AUTHORED],
  }));
  const kb = {
    formatVersion: FORMAT_VERSION,
    kbVersion: source.kbVersion,
    name: source.name,
    description: source.description,
    items: {
      concepts: [
        ...structure(source.bodySystems, systemId, 'bodySystem', links),
        ...structure(source.anatomicalLocations, locationId, 'anatomicalLocation', links),
        ...structure(source.pathologicalProcesses, processId, 'pathologicalProcess', links),
        ...source.observations.map((def) => observation(def, links, source.broader[def.id])),
        ...source.conditions.map((def) => condition(def, links)),
        ...source.medications.map((def) => concept(conceptId(def.id), def, 'medication', links)),
      ],
      relationships: source.conditions.flatMap((def) => relationships(def, links)),
      complications: source.conditions.flatMap(complications),
      questions,
      treatments: source.treatments.flatMap(treatments),
    },
  };
  kb.items.concepts = withAliasSources(
    kb.items.concepts,
    links,
    parsePhraseRules(source.layPhrases),
  );
  return loadKnowledgeBase(kb);
}
