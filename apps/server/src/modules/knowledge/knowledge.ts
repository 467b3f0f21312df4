import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Concept, KnowledgeBase } from '@loopdesk/clinical/kb/format.ts';
import { loadKnowledgeBase } from '@loopdesk/clinical/kb/integrity.ts';
import {
  createConceptIndex,
  createConceptIndexInBackground,
  type ConceptIndex,
} from '@loopdesk/clinical/search/concept-search.ts';
import {
  createRecogniser,
  createRecogniserInBackground,
  type Recogniser,
} from '@loopdesk/clinical/nlp/recognise.ts';
import type { FastifyBaseLogger } from 'fastify';
import {
  createDifferentialModel,
  type DifferentialModel,
} from '@loopdesk/clinical/inference/differential.ts';
import { REPO_ROOT } from '../../platform/config.ts';

/** The knowledge base and everything built from it once, at app start. */
export interface Knowledge {
  readonly path: string;
  readonly kb: KnowledgeBase;
  readonly byId: ReadonlyMap<string, Concept>;
  readonly index: ConceptIndex;
  readonly recogniser: Recogniser;
  readonly differential: DifferentialModel;
}

/** Thrown at start when KB_PATH cannot be read or does not hold a valid knowledge base. */
export class KnowledgeBaseError extends Error {
  constructor(file: string, reason: string) {
    super(`KB_PATH (${file}): ${reason}`);
    this.name = 'KnowledgeBaseError';
  }
}

// Several apps in one process (tests, a cluster node's restart) share one build per file version.
const cache = new Map<string, { mtimeMs: number; size: number; knowledge: Knowledge }>();

/** Reads, checks and indexes the knowledge base at `kbPath` (relative to the repository root). */
export function loadKnowledge(kbPath: string): Knowledge {
  const file = path.resolve(REPO_ROOT, kbPath);
  let stat;
  try {
    stat = statSync(file);
  } catch {
    throw new KnowledgeBaseError(file, 'no such file; set KB_PATH to the knowledge-base JSON');
  }
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) {
    return cached.knowledge;
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new KnowledgeBaseError(file, `not readable JSON: ${(error as Error).message}`);
  }
  let kb: KnowledgeBase;
  try {
    kb = loadKnowledgeBase(json);
  } catch (error) {
    throw new KnowledgeBaseError(file, (error as Error).message);
  }
  const knowledge = buildKnowledge(file, kb);
  cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, knowledge });
  return knowledge;
}

/**
 * From this many names on (canonical names and aliases: what both builds' time follows), concept
 * search and the recogniser are built in the background (steps of a few milliseconds between other
 * work, issue 22): the server answers `/healthz` and its other routes meanwhile; the routes that
 * read them await their `ready` (a failed build answers 503). A smaller KB is indexed at once
 * (under 0.2 s for search, about 1 s for the recogniser).
 */
export const BACKGROUND_INDEX_NAMES = 50_000;

/** The names (canonical names and aliases) of `concepts`. */
export function nameCount(concepts: readonly Concept[]): number {
  let names = 0;
  for (const concept of concepts) {
    names += 1 + concept.aliases.length;
  }
  return names;
}

/** Indexes a (checked) knowledge base: concept search, recogniser, differential. */
export function buildKnowledge(file: string, kb: KnowledgeBase): Knowledge {
  const { concepts } = kb.items;
  const large = nameCount(concepts) >= BACKGROUND_INDEX_NAMES;
  return {
    path: file,
    kb,
    byId: new Map(concepts.map((c) => [c.id, c])),
    index: large ? createConceptIndexInBackground(concepts) : createConceptIndex(concepts),
    recogniser: large ? createRecogniserInBackground(concepts) : createRecogniser(concepts),
    differential: createDifferentialModel(kb.items),
  };
}

/** Logs (once each) a failed background build of concept search or of the recogniser. */
function logFailedBuilds(knowledge: Knowledge, log: FastifyBaseLogger | undefined): void {
  const report = (what: string) => (error: unknown) =>
    log?.error(
      { err: error, kb: knowledge.path },
      `${what}: building it from the knowledge base failed; the routes that need it answer 503`,
    );
  knowledge.index.ready.catch(report('concept search'));
  knowledge.recogniser.ready.catch(report('entity recognition'));
}

/**
 * A knowledge base revised while the server runs (approved async-pipeline work, see
 * docs/async-pipelines.md). `knowledge` keeps its identity for the routes registered with it:
 * after `replace`, its arrays, map and version are the new version's (changed in place) and its
 * index, recogniser and differential answer from the new version's.
 */
export interface LiveKnowledge {
  readonly knowledge: Knowledge;
  /** Makes a new (already checked) version of the knowledge base the served one. */
  replace(kb: KnowledgeBase): void;
}

/** Replaces an array's contents in place (no spread: a KB may hold 100,000 items). */
function refill<T>(target: T[], source: readonly T[]): void {
  target.length = 0;
  for (const item of source) {
    target.push(item);
  }
}

export function createLiveKnowledge(base: Knowledge, log?: FastifyBaseLogger): LiveKnowledge {
  let current = base;
  logFailedBuilds(base, log);
  // This app's own copies: the loaded base is shared by every app of the process.
  const items = {
    concepts: [...base.kb.items.concepts],
    relationships: [...base.kb.items.relationships],
    complications: [...base.kb.items.complications],
    questions: [...base.kb.items.questions],
    treatments: [...(base.kb.items.treatments ?? [])],
  };
  const kb: KnowledgeBase = { ...base.kb, items };
  const byId = new Map(base.byId);
  const knowledge: Knowledge = {
    path: base.path,
    kb,
    byId,
    index: {
      search: (query, options) => current.index.search(query, options),
      get size() {
        return current.index.size;
      },
      get ready() {
        return current.index.ready;
      },
    },
    recogniser: {
      recognise: (text) => current.recogniser.recognise(text),
      lookup: (id) => current.recogniser.lookup(id),
      get size() {
        return current.recogniser.size;
      },
      get ready() {
        return current.recogniser.ready;
      },
    },
    differential: {
      diagnose: (observations, options) => current.differential.diagnose(observations, options),
      resolveObservation: (name) => current.differential.resolveObservation(name),
      get observations() {
        return current.differential.observations;
      },
    },
  };
  return {
    knowledge,
    replace(next) {
      current = buildKnowledge(base.path, next);
      logFailedBuilds(current, log);
      const { items: nextItems, ...header } = next;
      Object.assign(kb, header);
      refill(items.concepts, nextItems.concepts);
      refill(items.relationships, nextItems.relationships);
      refill(items.complications, nextItems.complications);
      refill(items.questions, nextItems.questions);
      refill(items.treatments, nextItems.treatments ?? []);
      byId.clear();
      for (const [id, concept] of current.byId) {
        byId.set(id, concept);
      }
    },
  };
}
