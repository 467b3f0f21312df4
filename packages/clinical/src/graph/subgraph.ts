import type { Concept, ConceptClass, KbItems } from '../kb/format.ts';
import { weightValue } from '../kb/format.ts';

/** Vertex classes and model names are defined once in contracts, the wire format (spec 3 §3, §7). */
import { MODEL_NAMES, VERTEX_CLASSES } from '@loopdesk/contracts/intelligence.ts';
export { MODEL_NAMES, VERTEX_CLASSES };
export type VertexClass = (typeof VERTEX_CLASSES)[number];
export type ModelName = (typeof MODEL_NAMES)[number];

/** One item of a model list: a concept id (`bid`) and its display name. */
export interface ModelItem {
  bid: string;
  display: string;
}

/** A graph vertex; `content` is the text of a question vertex. */
export interface Vertex {
  bid: string;
  class: VertexClass;
  display: string;
  content?: string;
}

/** A directed, labelled graph edge. */
export interface Edge {
  bid: string;
  from: string;
  to: string;
  rel: string;
  class: string;
  weight: number;
}

/** A subgraph: vertexes and edges between them. */
export interface Subgraph {
  vertexes: Vertex[];
  edges: Edge[];
}

const MODEL_CLASS: Record<ModelName, ConceptClass> = {
  'pathological-processes': 'pathologicalProcess',
  'body-systems': 'bodySystem',
  'anatomical-locations': 'anatomicalLocation',
  conditions: 'condition',
};

/** The vertex class of a concept class (sign, symptom → observation). */
export function vertexClassOf(cls: ConceptClass): VertexClass {
  return cls === 'sign' || cls === 'symptom' ? 'observation' : cls;
}

/** True when `name` is one of the model names. */
export function isModelName(name: string): name is ModelName {
  return (MODEL_NAMES as readonly string[]).includes(name);
}

/** The items of a model (conditions, body systems…), sorted by display name. */
export function listModel(items: KbItems, model: ModelName): ModelItem[] {
  const cls = MODEL_CLASS[model];
  return items.concepts
    .filter((c) => c.class === cls)
    .map((c) => ({ bid: c.id, display: c.canonicalName }))
    .sort((a, b) => a.display.localeCompare(b.display) || a.bid.localeCompare(b.bid));
}

/**
 * A condition's neighbourhood: its observations (Positive and Negative edges), body systems,
 * anatomical locations, pathological processes, complications that are concepts, medications it
 * is treated with, and questions about its observations. `classes` keeps only vertexes of those classes (the condition itself
 * always stays) and the edges between kept vertexes. Undefined for an unknown condition.
 */
export function conditionSubgraph(
  items: KbItems,
  conditionId: string,
  classes: readonly string[] = VERTEX_CLASSES,
): Subgraph | undefined {
  const byId = new Map(items.concepts.map((c) => [c.id, c]));
  const root = byId.get(conditionId);
  if (!root || root.class !== 'condition') {
    return undefined;
  }
  const wanted = new Set(classes);
  const vertexes = new Map<string, Vertex>();
  const edges: Edge[] = [];
  const addConcept = (c: Concept): boolean => {
    const cls = vertexClassOf(c.class);
    if (c.id !== root.id && !wanted.has(cls)) {
      return false;
    }
    if (!vertexes.has(c.id)) {
      vertexes.set(c.id, { bid: c.id, class: cls, display: c.canonicalName });
    }
    return true;
  };
  addConcept(root);

  const link = (to: string, rel: string, cls: string): void => {
    const target = byId.get(to);
    if (target && addConcept(target)) {
      edges.push({ bid: `${root.id}|${rel}|${to}`, from: root.id, to, rel, class: cls, weight: 1 });
    }
  };
  root.bodySystems.forEach((id) => link(id, 'bodySystem', 'bodySystem'));
  root.anatomicalLocations.forEach((id) => link(id, 'anatomicalLocation', 'anatomicalLocation'));
  root.pathologicalProcesses.forEach((id) =>
    link(id, 'pathologicalProcess', 'pathologicalProcess'),
  );

  const observationIds = new Set<string>();
  for (const r of items.relationships.filter((rel) => rel.from === root.id)) {
    const target = byId.get(r.to);
    if (target && addConcept(target)) {
      observationIds.add(r.to);
      edges.push({
        bid: r.id,
        from: r.from,
        to: r.to,
        rel: r.correlation === 'Positive' ? 'suggests' : 'argues against',
        class: r.correlation,
        weight: weightValue(r.weight),
      });
    }
  }
  for (const c of items.complications.filter((x) => x.condition === root.id)) {
    const target = c.concept === undefined ? undefined : byId.get(c.concept);
    if (target && addConcept(target)) {
      edges.push({
        bid: c.id,
        from: root.id,
        to: target.id,
        rel: 'complication',
        class: c.acuity,
        weight: 1,
      });
    }
  }
  for (const t of (items.treatments ?? []).filter((x) => x.condition === root.id)) {
    const target = byId.get(t.medication);
    if (target && addConcept(target)) {
      edges.push({
        bid: t.id,
        from: root.id,
        to: target.id,
        rel: 'treated with',
        class: 'medication',
        weight: 1,
      });
    }
  }
  if (wanted.has('question')) {
    for (const q of items.questions) {
      const about = q.observations.filter((o) => observationIds.has(o));
      if (about.length === 0 && !q.conditions.includes(root.id)) {
        continue;
      }
      vertexes.set(q.id, { bid: q.id, class: 'question', display: q.content, content: q.content });
      for (const o of about) {
        edges.push({
          bid: `${q.id}|asks|${o}`,
          from: q.id,
          to: o,
          rel: 'asks about',
          class: 'question',
          weight: 1,
        });
      }
      if (q.conditions.includes(root.id)) {
        edges.push({
          bid: `${q.id}|asks|${root.id}`,
          from: q.id,
          to: root.id,
          rel: 'asks about',
          class: 'question',
          weight: 1,
        });
      }
    }
  }
  return { vertexes: [...vertexes.values()], edges };
}

/** A relationship of the ontology; with metadata, also names, correlation, weight and basis. */
export interface RelationshipRecord {
  bid: string;
  from: string;
  to: string;
  fromDisplay?: string;
  toDisplay?: string;
  correlation?: 'Positive' | 'Negative';
  weight?: number;
  basis?: string;
}

/** Every condition → observation relationship, with metadata when asked (spec 3 §7). */
export function listRelationships(items: KbItems, metadata = false): RelationshipRecord[] {
  const names = new Map(items.concepts.map((c) => [c.id, c.canonicalName]));
  return items.relationships.map((r) =>
    metadata
      ? {
          bid: r.id,
          from: r.from,
          to: r.to,
          fromDisplay: names.get(r.from) ?? r.from,
          toDisplay: names.get(r.to) ?? r.to,
          correlation: r.correlation,
          weight: weightValue(r.weight),
          basis: r.basis,
        }
      : { bid: r.id, from: r.from, to: r.to },
  );
}
