import type { Concept, ConceptClass } from '@loopdesk/clinical/kb/format.ts';
import { OBSERVATION_CLASSES } from '@loopdesk/clinical/kb/format.ts';
import {
  conditionSubgraph,
  isModelName,
  listModel,
  listRelationships,
  vertexClassOf,
} from '@loopdesk/clinical/graph/subgraph.ts';
import { differentialAcuity } from '@loopdesk/clinical/inference/acuity.ts';
import { SEMANTIC_TYPES } from '@loopdesk/clinical/nlp/evaluate.ts';
import {
  CONCEPT_CLASSES,
  MODEL_NAMES,
  TYPEAHEAD_MIN_CHARS,
  VERTEX_CLASSES,
  type DiagnosisPrediction,
  type InferenceRecord,
} from '@loopdesk/contracts/intelligence.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { awaitBuild, badRequest, notFound } from '../../platform/errors.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';

/** What typeahead `type=trained` searches: what the differential is trained on. */
const TRAINED_CLASSES: readonly ConceptClass[] = ['condition', ...OBSERVATION_CLASSES];

const isConceptClass = (value: string): value is ConceptClass =>
  (CONCEPT_CLASSES as readonly string[]).includes(value);

/** The concept classes a requested class covers: `observation` also means signs and symptoms. */
function expandClasses(classes: readonly ConceptClass[]): ConceptClass[] {
  return [
    ...new Set(
      classes.flatMap((c) =>
        c === 'observation' ? (['observation', 'sign', 'symptom'] as const) : [c],
      ),
    ),
  ];
}

/** 'an observation', 'a bodySystem'. */
const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

function record(concept: Concept, metadata: boolean): InferenceRecord {
  const base = {
    bid: concept.id,
    codes: concept.codes,
    display: concept.canonicalName,
    name: concept.canonicalName,
  };
  if (!metadata) {
    return base;
  }
  return {
    ...base,
    class: concept.class,
    aliases: concept.aliases,
    ...(concept.cui === undefined ? {} : { cui: concept.cui }),
    ...(concept.definition === undefined ? {} : { definition: concept.definition }),
    ...(concept.acuity === undefined ? {} : { acuity: concept.acuity }),
    ...(concept.prevalence === undefined ? {} : { prevalence: concept.prevalence }),
    ...(concept.class === 'condition' ? { bodySystems: concept.bodySystems } : {}),
  };
}

const byName = (a: Concept, b: Concept) =>
  a.canonicalName.localeCompare(b.canonicalName) || a.id.localeCompare(b.id);

/**
 * Typeahead, concept search, the ontology and the differential (spec 1 §7, spec 3 §7). The
 * clinical package does the work; these handlers parse, call and shape.
 */
export function registerIntelligenceRoutes(api: ApiRouter, knowledge: Knowledge): void {
  const { kb, index, differential, byId } = knowledge;
  const concepts = kb.items.concepts;

  // A search waits for a large index still building in the background (issue 22) rather than
  // finishing the build on the event loop: other requests and /healthz go on meanwhile. A build
  // that failed answers 503.
  api.route('GET /internal/utilities/typeahead', async (request) => {
    const { t, type } = request.query;
    const text = t.trim();
    if (text.length < TYPEAHEAD_MIN_CHARS) {
      throw badRequest(
        `Type at least ${TYPEAHEAD_MIN_CHARS} characters to search (got ${text.length}).`,
        [{ path: 'querystring.t', message: `needs at least ${TYPEAHEAD_MIN_CHARS} characters` }],
      );
    }
    await awaitBuild(index.ready, 'Concept search');
    const results = index.search(text, type === 'trained' ? { classes: TRAINED_CLASSES } : {});
    return {
      results: results.map((r) => ({
        name: r.matched,
        canonicalName: r.canonicalName,
        conceptId: r.conceptId,
        index: r.index,
        relevance: r.score,
        types: [SEMANTIC_TYPES[r.class]],
        sources: byId.get(r.conceptId)?.codes ?? [],
      })),
    };
  });

  api.route('POST /internal/intelligence/ontology/concepts/_search', async (request) => {
    const { query, dataType, limit } = request.body;
    await awaitBuild(index.ready, 'Concept search');
    const results = index.search(query, {
      limit,
      ...(dataType.length > 0 ? { classes: expandClasses(dataType) } : {}),
    });
    return {
      results: results.map((r) => ({
        canonicalName: r.canonicalName,
        conceptId: r.conceptId,
        index: r.index,
        class: r.class,
        score: r.score,
      })),
    };
  });

  api.route('GET /internal/async-jobs/data/concept/_query', async (request) => {
    const { q } = request.query;
    await awaitBuild(index.ready, 'Concept search');
    return {
      results: index.search(q).map((r) => ({
        conceptId: r.conceptId,
        canonicalName: r.canonicalName,
        aliases: r.index,
      })),
    };
  });

  api.route('GET /internal/intelligence/ontology/concepts/_classes', (request) => {
    const { classType } = request.query;
    if (classType === undefined || !isConceptClass(classType)) {
      throw badRequest(
        `${classType === undefined ? 'classType is required' : `Unknown classType '${classType}'`}: use one of ${quoted(CONCEPT_CLASSES)}.`,
        [
          {
            path: 'querystring.classType',
            message: `must be one of ${CONCEPT_CLASSES.join(', ')}`,
          },
        ],
      );
    }
    const wanted = new Set(expandClasses([classType]));
    return {
      items: concepts
        .filter((c) => wanted.has(c.class))
        .sort(byName)
        .map((c) => ({ id: c.id, display: c.canonicalName })),
    };
  });

  api.route('GET /internal/intelligence/ontology/models/relationships', (request) => {
    const { metadata } = request.query;
    return { items: listRelationships(kb.items, metadata) };
  });

  api.route('GET /internal/intelligence/ontology/models/:modelName', (request) => {
    const { modelName } = request.params;
    if (!isModelName(modelName)) {
      throw notFound(
        `No model '${modelName}': the models are ${quoted([...MODEL_NAMES, 'relationships'])}.`,
      );
    }
    return { items: listModel(kb.items, modelName) };
  });

  api.route('GET /internal/intelligence/ontology/models/:model/:id/_subgraph', (request) => {
    const { model, id } = request.params;
    const { classExtensions } = request.query;
    if (model !== 'conditions') {
      throw notFound(
        isModelName(model)
          ? `Subgraphs are drawn around conditions: use models/conditions/{id}/_subgraph.`
          : `No model '${model}': subgraphs are drawn around conditions (models/conditions/{id}/_subgraph).`,
      );
    }
    const unknown = classExtensions.filter(
      (c) => !(VERTEX_CLASSES as readonly string[]).includes(c),
    );
    if (unknown.length > 0) {
      throw badRequest(
        `Unknown classExtensions ${quoted(unknown)}: use the vertex classes ${quoted(VERTEX_CLASSES)}.`,
        [
          {
            path: 'querystring.classExtensions',
            message: `must be among ${VERTEX_CLASSES.join(', ')}`,
          },
        ],
      );
    }
    const graph = conditionSubgraph(
      kb.items,
      id,
      classExtensions.length > 0 ? classExtensions : undefined,
    );
    if (!graph) {
      const concept = byId.get(id);
      throw notFound(
        concept
          ? `'${id}' is ${withArticle(vertexClassOf(concept.class))}, not a condition: subgraphs are drawn around conditions.`
          : `No condition with the id '${id}'. The condition model lists them.`,
      );
    }
    return graph;
  });

  api.route('GET /internal/intelligence/clinical_inference/ontology/_count', () => ({
    count: concepts.length,
  }));

  api.route('GET /internal/intelligence/clinical_inference/ontology', (request) => {
    const { p, s } = request.query;
    return {
      items: concepts.slice(p * s, (p + 1) * s).map((c) => ({
        c: c.id,
        display: c.canonicalName,
        class: c.class,
        ...(c.cui === undefined ? {} : { cui: c.cui }),
        aliases: c.aliases,
        codes: c.codes,
      })),
      page: p,
      size: s,
      total: concepts.length,
    };
  });

  api.route('GET /internal/intelligence/clinical_inference/conditions', (request) => {
    const { metadata } = request.query;
    // Per request: approved async-pipeline work revises the KB in place (knowledge.ts).
    const conditions = concepts.filter((c) => c.class === 'condition').sort(byName);
    return { items: conditions.map((c) => record(c, metadata)) };
  });

  api.route('GET /internal/intelligence/clinical_inference/observations', (request) => {
    const { metadata } = request.query;
    // The differential model's observations are already sorted by canonical name.
    return { items: differential.observations.map((c) => record(c, metadata)) };
  });

  api.route(
    'POST /internal/intelligence/clinical_inference/differential_diagnosis',
    (request): DiagnosisPrediction => {
      const { observations } = request.body;
      const prediction = differential.diagnose(observations);
      const acuity = differentialAcuity(prediction.inference);
      return {
        inference: prediction.inference.map((entry) => ({
          condition: entry.condition,
          conditionId: entry.conditionId,
          probability: entry.probability,
          ...(entry.acuity === undefined ? {} : { acuity: entry.acuity }),
          associatedObservations: entry.associatedObservations,
        })),
        differentiatingObservations: prediction.differentiatingObservations,
        unknownObservations: prediction.unknownObservations,
        ...(acuity === 'emergent' || acuity === 'urgent' || acuity === 'other' ? { acuity } : {}),
      };
    },
  );
}
