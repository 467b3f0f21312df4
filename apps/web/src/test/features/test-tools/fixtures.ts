/** An evaluation answer (POST /internal/nlp/evaluate) whose `resolved` holds the tool's state. */
export function evaluation(text: string, resolved: Record<string, unknown>) {
  return {
    text,
    entities: [],
    phrases: [],
    conditions: [],
    observations: [],
    resolved: {
      resolvedEntities: [],
      resolvedPhrases: [],
      normalisedObservations: [],
      ...resolved,
    },
  };
}

/** A diagnosis prediction with full-precision numbers; one condition has no associated observation. */
export const PREDICTION = {
  inference: [
    {
      condition: 'appendicitis',
      conditionId: 'LD:appendicitis',
      probability: 0.96123,
      acuity: 'emergent',
      associatedObservations: [
        { observation: 'right lower abdominal pain', observationId: 'LD:rlq-pain', weight: 0.85 },
        { observation: 'fever', observationId: 'LD:fever', weight: 0.4 },
      ],
    },
    {
      condition: 'gastroenteritis',
      conditionId: 'LD:gastroenteritis',
      probability: 0.0345,
      associatedObservations: [{ observation: 'fever', observationId: 'LD:fever', weight: 0.3 }],
    },
    {
      condition: 'migraine',
      conditionId: 'LD:migraine',
      probability: 0.004,
      associatedObservations: [],
    },
  ],
  differentiatingObservations: [
    {
      observation: 'abdominal tenderness',
      observationId: 'LD:abdominal-tenderness',
      relevance: 0.0712,
    },
  ],
  unknownObservations: [],
  acuity: 'emergent',
};

/** Observations the fake concept search knows, with their aliases. */
const OBSERVATION_CONCEPTS = [
  { canonicalName: 'abdominal pain', aliases: ['tummy ache', 'stomach ache'] },
  { canonicalName: 'fever', aliases: ['high temperature'] },
  { canonicalName: 'feverish feeling', aliases: [] },
  { canonicalName: 'right lower abdominal pain', aliases: ['pain in my lower right tummy'] },
];

/**
 * A stand-in for POST …/ontology/concepts/_search over the observations: names or aliases
 * containing the query, ranked as listed.
 */
export function observationSearch(body: unknown) {
  const { query } = body as { query?: unknown };
  const text = typeof query === 'string' ? query.toLowerCase() : '';
  return {
    results: OBSERVATION_CONCEPTS.filter((concept) =>
      [concept.canonicalName, ...concept.aliases].some((name) => name.includes(text)),
    ).map((concept) => ({
      canonicalName: concept.canonicalName,
      conceptId: `LD:${concept.canonicalName}`,
      index: concept.aliases,
      class: 'symptom',
      score: 1,
    })),
  };
}

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];

/** The calls to paths ending in `suffix`: their address, JSON body and headers. */
export function requestsTo(fetchMock: { mock: { calls: FetchArgs[] } }, suffix: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      init,
    }))
    .filter(({ url }) => new URL(url, 'http://localhost').pathname.endsWith(suffix))
    .map(({ url, init }) => ({
      url,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: new Headers(init?.headers),
    }));
}
