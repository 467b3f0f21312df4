import type { ConceptClass } from '../kb/format.ts';
import { OBSERVATION_CLASSES } from '../kb/format.ts';
import type { OnsetEntity } from './onset.ts';
import type { ConceptEntity, Recognition, Recogniser } from './recognise.ts';
import type {
  AutomatedRecognitionResult,
  EntityExtractionResult,
  EntityRecognitionState,
  ExtractedConcept,
  ExtractedEntity,
  ExtractedPhrase,
  NormalisedItem,
  ResolvedSegment,
} from './schemas.ts';
import { tokenise } from './tokenise.ts';

const observationClasses = new Set<string>(OBSERVATION_CLASSES);
const NO_CONTEXT = { historical: false, family: false, hypothetical: false };

/** UMLS semantic type names reported for each concept class (spec 2 §3 `semanticTypes`). */
export const SEMANTIC_TYPES: Record<ConceptClass | 'onset', string> = {
  condition: 'Disease or Syndrome',
  observation: 'Finding',
  sign: 'Sign or Symptom',
  symptom: 'Sign or Symptom',
  medication: 'Pharmacologic Substance',
  anatomicalLocation: 'Body Location or Region',
  bodySystem: 'Body System',
  pathologicalProcess: 'Pathologic Function',
  epidemiologicalFactor: 'Finding',
  labTest: 'Laboratory Procedure',
  imaging: 'Diagnostic Procedure',
  procedure: 'Therapeutic or Preventive Procedure',
  action: 'Activity',
  communication: 'Intellectual Product',
  device: 'Medical Device',
  sex: 'Organism Attribute',
  vocabulary: 'Intellectual Product',
  onset: 'Temporal Concept',
};

type Mention = ConceptEntity | OnsetEntity;

function orderedMentions(recognition: Recognition): Mention[] {
  return [...recognition.entities, ...recognition.onsets].sort(
    (a, b) => a.start - b.start || b.end - a.end,
  );
}

// Clause breaks inside a sentence: punctuation and the conjunctions that end a cue's scope.
const PHRASE_BREAK_WORDS = new Set(['but', 'however', 'although', 'though', 'except']);

/** Splits each sentence into phrases (clauses) at commas, colons and 'but'-like words. */
export function splitPhrases(recognition: Recognition): { start: number; end: number }[] {
  const phrases: { start: number; end: number }[] = [];
  for (const sentence of recognition.sentences) {
    let start: number | undefined;
    let end = sentence.start;
    for (const token of tokenise(recognition.text.slice(sentence.start, sentence.end))) {
      const from = token.start + sentence.start;
      const breaks =
        (token.kind === 'punct' && /^[,:;()!?.]$/u.test(token.text)) ||
        (token.kind === 'word' && PHRASE_BREAK_WORDS.has(token.text.toLowerCase()));
      if (breaks) {
        if (start !== undefined) {
          phrases.push({ start, end });
        }
        start = token.kind === 'word' ? from : undefined;
        end = token.end + sentence.start;
        continue;
      }
      start ??= from;
      end = token.end + sentence.start;
    }
    if (start !== undefined) {
      phrases.push({ start, end });
    }
  }
  return phrases;
}

/**
 * The evaluation call's result for a text (spec 3 §3 "Entity extraction result"): every
 * recognised span as an entity (`id` the concept id or 'onset', `extractId` 'x1'…), the
 * phrases (`id` = `extractId` 'p1'…) with the entities they hold, and the condition and
 * observation mentions.
 */
export function evaluateText(text: string, recogniser: Recogniser): EntityExtractionResult {
  const recognition = recogniser.recognise(text);
  const entities: ExtractedEntity[] = orderedMentions(recognition).map((m, i) => {
    const extractId = `x${i + 1}`;
    if (m.category === 'onset') {
      return {
        id: 'onset',
        extractId,
        start: m.start,
        end: m.end,
        original: m.original,
        category: 'onset',
        display: m.original,
        negated: false,
        presence: 'endorse',
        context: NO_CONTEXT,
        normalised: [],
        onset: {
          relation: m.relation,
          ...(m.amount === undefined ? {} : { amount: m.amount }),
          ...(m.unit === undefined ? {} : { unit: m.unit }),
        },
      };
    }
    return {
      id: m.conceptId,
      extractId,
      start: m.start,
      end: m.end,
      original: m.original,
      category: m.class,
      display: m.canonicalName,
      negated: m.negated,
      presence: m.presence,
      context: m.context,
      normalised: m.candidates.map((c, j) => ({
        id: c.conceptId,
        display: c.canonicalName,
        class: c.class,
        bestMatch: j === 0,
      })),
    };
  });
  const phrases: ExtractedPhrase[] = splitPhrases(recognition).map((p, i) => ({
    id: `p${i + 1}`,
    extractId: `p${i + 1}`,
    start: p.start,
    end: p.end,
    original: text.slice(p.start, p.end),
    entityIds: entities
      .filter((e) => e.start >= p.start && e.start < p.end)
      .map((e) => e.extractId),
  }));
  const asConcept = (e: ExtractedEntity): ExtractedConcept => ({
    id: e.id,
    extractId: e.extractId,
    start: e.start,
    end: e.end,
    original: e.original,
    display: e.display,
    class: e.category,
    negated: e.negated,
    presence: e.presence,
    context: e.context,
  });
  return {
    text,
    entities,
    phrases,
    conditions: entities.filter((e) => e.category === 'condition').map(asConcept),
    observations: entities.filter((e) => observationClasses.has(e.category)).map(asConcept),
  };
}

function resolve(
  text: string,
  spans: readonly { start: number; end: number; normalised: NormalisedItem[] }[],
): ResolvedSegment[] {
  const segments: ResolvedSegment[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at) {
      continue;
    }
    if (span.start > at) {
      segments.push(text.slice(at, span.start));
    }
    segments.push({ original: text.slice(span.start, span.end), normalised: span.normalised });
    at = span.end;
  }
  if (at < text.length) {
    segments.push(text.slice(at));
  }
  return segments;
}

/**
 * The test tool's state from an extraction result: the text as plain pieces and recognised
 * spans (entities; phrases holding concepts), and the observations to offer to the
 * differential: endorsed, about the patient, now; deduplicated by display name.
 */
export function toRecognitionState(result: EntityExtractionResult): EntityRecognitionState {
  const conceptEntities = result.entities.filter((e) => e.category !== 'onset');
  const resolvedEntities = resolve(
    result.text,
    result.entities.map((e) => ({
      start: e.start,
      end: e.end,
      normalised: e.normalised.map((n) => ({ id: n.id, display: n.display })),
    })),
  );
  const resolvedPhrases = resolve(
    result.text,
    result.phrases.map((p) => ({
      start: p.start,
      end: p.end,
      normalised: conceptEntities
        .filter((e) => p.entityIds.includes(e.extractId))
        .map((e) => ({ id: e.id, display: e.display })),
    })),
  );
  const seen = new Set<string>();
  const normalisedObservations = result.observations
    .filter(
      (o) =>
        o.presence === 'endorse' &&
        !o.context.family &&
        !o.context.historical &&
        !seen.has(o.display) &&
        seen.add(o.display),
    )
    .map((o) => ({ id: o.id, display: o.display }));
  return { resolvedEntities, resolvedPhrases, normalisedObservations };
}

/**
 * The automated recognition result of spec 2 §3: each span with its candidate concepts (code:
 * the CUI when the concept has one, else its id) and semantic types. Onsets come with no
 * concepts and the type 'Temporal Concept'.
 */
export function toAutomatedRecognition(
  result: EntityExtractionResult,
  recogniser: Recogniser,
): AutomatedRecognitionResult {
  return {
    entities: result.entities.map((e) => ({
      start: e.start,
      end: e.end,
      original: e.original,
      concepts: e.normalised.map((n) => {
        const cui = recogniser.lookup(n.id)?.cui;
        return {
          coding: {
            display: n.display,
            code: cui ?? n.id,
            system: cui === undefined ? 'LD' : 'UMLS',
          },
          bestMatch: n.bestMatch,
        };
      }),
      semanticTypes: [
        ...new Set(
          e.category === 'onset'
            ? [SEMANTIC_TYPES.onset]
            : e.normalised.map((n) => SEMANTIC_TYPES[n.class as ConceptClass] ?? 'Finding'),
        ),
      ],
    })),
  };
}
