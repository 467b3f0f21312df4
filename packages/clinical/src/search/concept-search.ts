/**
 * Concept search (spec 3 §3), the public face: types, options and the index factories. The index
 * is built by `build.ts`, queried by `query.ts`; text helpers live in `text.ts` (issue 22).
 */
import type { Concept, ConceptClass } from '../kb/format.ts';
import { inBackground, runSteps } from '../background.ts';
import { build, type Built } from './build.ts';
import { search } from './query.ts';

export { allowedEdits, boundedEditDistance, normaliseText } from './text.ts';

/** One answer of concept search (spec 3 §3 "Concept search result", plus class and score). */
export interface ConceptSearchResult {
  conceptId: string;
  canonicalName: string;
  /** The concept's aliases. */
  index: string[];
  class: ConceptClass;
  /** 0..1; higher is better. */
  score: number;
  /** The name (canonical or alias) that matched best. */
  matched: string;
}

export interface ConceptSearchOptions {
  /** Only concepts of these classes. */
  classes?: readonly ConceptClass[];
  /** At most this many results (default 20). */
  limit?: number;
}

/** A search index over concepts, built once and queried many times. */
export interface ConceptIndex {
  search(query: string, options?: ConceptSearchOptions): ConceptSearchResult[];
  readonly size: number;
  /** Settles when the index is built: at once, or when a background build ends. */
  readonly ready: Promise<void>;
}

/**
 * Candidates a search reads at most (default of `candidateBudget`), best first, once it has one
 * result (eight times as many while it has none). Queries of short, common words in a large
 * terminology have many thousands of candidates that all score alike; the budget keeps their cost
 * flat while the vocabulary grows, at the price of an exhaustive answer for them.
 */
export const CANDIDATE_BUDGET = 4096;

/**
 * Postings of a query token marked in the typo tier's join, at most (default of `joinPostings`):
 * see `entry-join.ts`. A token with more is left to checking each candidate's tokens, and a tier
 * whose chosen token has more is read a batch at a time within the budget of checks.
 */
export const JOIN_POSTINGS = 65_536;

export interface ConceptIndexOptions {
  /** See `CANDIDATE_BUDGET`; `Infinity` reads every candidate that could enter the page. */
  candidateBudget?: number;
  /** See `JOIN_POSTINGS` (a small value makes a small vocabulary take the paths of a large one). */
  joinPostings?: number;
}

function indexOver(
  built: () => Built,
  size: number,
  options: ConceptIndexOptions,
  ready: Promise<void>,
): ConceptIndex {
  const limits = {
    budget: options.candidateBudget ?? CANDIDATE_BUDGET,
    joinPostings: options.joinPostings ?? JOIN_POSTINGS,
  };
  return {
    size,
    ready,
    search: (query, searchOptions = {}) => search(built(), limits, query, searchOptions),
  };
}

/**
 * Builds an in-memory concept index over canonical names and aliases.
 *
 * Search reads candidates best first and stops once no unread candidate can enter the page, so its
 * cost follows the page and the query rather than the vocabulary: names that start with the query
 * (sorted names, by binary search), entries holding the rarest query token or a word it starts
 * (sorted vocabulary, postings in order of name length, the first ids of every crowded prefix
 * kept ready) and, when those leave room, the tokens within the allowed edits of one query token
 * (a walk of the vocabulary's trie, `key-trie.ts`, with an edit-distance row per node). A query
 * with more candidates than `candidateBudget` is answered from the best-placed ones.
 */
export function createConceptIndex(
  concepts: readonly Concept[],
  options: ConceptIndexOptions = {},
): ConceptIndex {
  const built = runSteps(build(concepts));
  return indexOver(() => built, concepts.length, options, Promise.resolve());
}

/**
 * A concept index built a step at a time between other work; see `createConceptIndexInBackground`.
 * A search before `ready` finishes the build at once.
 */
export type BackgroundConceptIndex = ConceptIndex;

/**
 * Builds the index in steps of about `sliceMs` (default 10 ms), giving the event loop back between
 * them, so a server answers (`/healthz` included) while a large terminology is indexed. Callers
 * await `ready` (it rejects when the build fails); a search that comes before the end finishes the
 * build synchronously: it is never answered from a part.
 */
export function createConceptIndexInBackground(
  concepts: readonly Concept[],
  options: ConceptIndexOptions & { sliceMs?: number } = {},
): BackgroundConceptIndex {
  const building = inBackground(build(concepts), options.sliceMs);
  return indexOver(() => building.value(), concepts.length, options, building.ready);
}
