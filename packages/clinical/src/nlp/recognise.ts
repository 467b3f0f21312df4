import { inBackground, runSteps } from '../background.ts';
import type { Concept, ConceptClass } from '../kb/format.ts';
import { OBSERVATION_CLASSES } from '../kb/format.ts';
import type { Cue, CueCategory } from './cues.ts';
import { CUES } from './cues.ts';
import { contextScopes, cueMatches, yearCues } from './context.ts';
import type { Match, NameEntry, Unit } from './matching.ts';
import { fuzzyMatcher, insert, longestAt, node, unitsOf } from './matching.ts';
import type { NameEntryInput } from './name-trie.ts';
import { NameTrie, NONE } from './name-trie.ts';
import { derivedNames, LINK, nameKeys, nameKeysAndWords, partOf, unitKey } from './names.ts';
import type { OnsetEntity } from './onset.ts';
import { recogniseOnsets } from './onset.ts';
import type { Sentence } from './tokenise.ts';
import { splitSentences, tokenise } from './tokenise.ts';
import { readDoseFrequency } from './medication.ts';
import { FILLER_WORDS, PREDICATIVE_ADJECTIVES } from './word-lists.ts';

export { wordKey } from './normalise.ts';
export { FILLER_WORDS, LINKING_WORDS, PREDICATIVE_ADJECTIVES } from './word-lists.ts';
export type { DerivedName } from './names.ts';
export { derivedNameKeys, derivedNames, nameKeys } from './names.ts';

/** Whether the text says the patient has the finding: yes, no, or maybe / only if. */
export type Presence = 'endorse' | 'deny' | 'unsure';

/** Context flags of a mention (ConText): said of the past, of a relative, or of a what-if. */
export interface MentionContext {
  historical: boolean;
  family: boolean;
  hypothetical: boolean;
}

/** A concept the matched words also name, when more than one concept has that name. */
export interface ConceptCandidate {
  conceptId: string;
  canonicalName: string;
  class: ConceptClass;
}

/** A concept mentioned in the text. `end` is exclusive; `original` is `text.slice(start, end)`. */
export interface ConceptEntity {
  category: 'concept';
  start: number;
  end: number;
  original: string;
  conceptId: string;
  canonicalName: string;
  class: ConceptClass;
  negated: boolean;
  presence: Presence;
  context: MentionContext;
  /** The name that matched (canonical name or alias). */
  matched: string;
  /** True when a word matched a name only within the allowed edit distance (a typo). */
  fuzzy: boolean;
  /** Every concept carrying the matched name, the chosen one first. */
  candidates: ConceptCandidate[];
  /** Medications: the dose words after the name, when given ('400 mg'). */
  dose?: string;
  /** Medications: the frequency words, when given ('twice a day', 'when needed'). */
  frequency?: string;
}

/** What recognition finds in a text: concept mentions and onset / time expressions. */
export interface Recognition {
  text: string;
  sentences: Sentence[];
  entities: ConceptEntity[];
  onsets: OnsetEntity[];
}

export interface RecogniserOptions {
  /** Concept classes to recognise (default: conditions and the observation classes). */
  classes?: readonly ConceptClass[];
  /** Names (normalised like text) never matched in free text because they are ordinary words. */
  ignoreNames?: readonly string[];
  /** Cue list (default `CUES`). */
  cues?: readonly Cue[];
  /** Match a word within a small edit distance when it is no known word (default true). */
  fuzzy?: boolean;
  /**
   * Look a typo up in the deletion index of the dictionary's words (default true); false compares
   * the word with every word of the dictionary, the reference the index is tested against. The
   * result is the same either way.
   */
  typoIndex?: boolean;
}

/** A dictionary recogniser built once over a set of concepts. */
export interface Recogniser {
  recognise(text: string): Recognition;
  /** A concept given to the recogniser, by id. */
  lookup(id: string): Concept | undefined;
  /** Number of distinct names in the dictionary. */
  readonly size: number;
  /**
   * Settles when the recogniser is built: at once, or when a background build ends (rejecting
   * when it fails). See `createRecogniserInBackground`.
   */
  readonly ready: Promise<void>;
}

/** Concepts read between yields of a stepwise build (about a millisecond of work). */
const STEP = 64;

/** Classes recognised unless told otherwise. */
export const DEFAULT_RECOGNISED_CLASSES: readonly ConceptClass[] = [
  'condition',
  ...OBSERVATION_CLASSES,
  'medication',
];

/** Names that are everyday words in chat far more often than the concept they name. */
export const DEFAULT_IGNORED_NAMES: readonly string[] = [
  'cut',
  'scratch',
  'wind',
  'fit',
  'the itch',
  'appendix',
  'coronary',
  'straining',
  'worried',
  'nervous',
];

/** Preference among concepts sharing a name: what a patient reports before what it may mean. */
const CLASS_RANK: Partial<Record<ConceptClass, number>> = {
  symptom: 0,
  sign: 1,
  observation: 2,
  epidemiologicalFactor: 3,
  condition: 4,
};

/** A name's entries ranked, their concepts as candidates, and whether one is an acronym. */
interface Ranking {
  ranked: NameEntry[];
  candidates: ConceptCandidate[];
  exactCase: boolean;
}

/** Builds a recogniser over the names (canonical and aliases) of the given concepts. */
export function createRecogniser(
  concepts: readonly Concept[],
  options: RecogniserOptions = {},
): Recogniser {
  return runSteps(buildRecogniser(concepts, options));
}

/**
 * Builds the recogniser in steps of about `sliceMs` (default 10 ms), giving the event loop back
 * between them, so a server answers (`/healthz` included) while a large knowledge base is read
 * (36 s at a million concepts). Callers await `ready` (it rejects when the build fails); a text
 * recognised before the end finishes the build synchronously: it is never read with a part of the
 * dictionary.
 */
export function createRecogniserInBackground(
  concepts: readonly Concept[],
  options: RecogniserOptions & { sliceMs?: number } = {},
): Recogniser {
  // The built recogniser's own `ready` (settled) is not shown: this one is.
  const building = inBackground(buildRecogniser(concepts, options), options.sliceMs);
  return {
    get size() {
      return building.value().size;
    },
    ready: building.ready,
    recognise: (text) => building.value().recognise(text),
    lookup: (id) => building.value().lookup(id),
  };
}

/** The recogniser's build, a generator that yields every few dozen concepts. */
export function* buildRecogniser(
  concepts: readonly Concept[],
  options: RecogniserOptions,
): Generator<void, Recogniser, void> {
  const classes = new Set(options.classes ?? DEFAULT_RECOGNISED_CLASSES);
  const ignored = new Set(
    (options.ignoreNames ?? DEFAULT_IGNORED_NAMES).map((n) => nameKeys(n).join(' ')),
  );
  // The names of every concept are a trie over word numbers in typed arrays (nlp/name-trie.ts):
  // the entries hold the concept's position and which of its names it is, not objects.
  const names = new NameTrie(concepts);
  let size = 0;
  // Names said another way by rule; a way that is already some concept's written name is left
  // to that concept, so they are inserted after every written name.
  const derived: [string[], NameEntryInput][] = [];
  for (let c = 0; c < concepts.length; c++) {
    const concept = concepts[c] as Concept;
    if (c % STEP === STEP - 1) {
      yield;
    }
    if (!classes.has(concept.class)) {
      continue;
    }
    const seen = new Set<string>();
    [concept.canonicalName, ...concept.aliases].forEach((name, i) => {
      const { keys, words } = nameKeysAndWords(name);
      const joined = keys.join(' ');
      if (keys.length > 0 && !seen.has(joined) && !ignored.has(joined)) {
        seen.add(joined);
        const part = partOf(keys);
        names.insert(keys, { concept: c, name: i, derived: false, ...(part ? { part } : {}) });
        size++;
      }
      for (const way of derivedNames(keys, words)) {
        derived.push([
          way.keys,
          { concept: c, name: i, derived: true, ...(way.part ? { part: way.part } : {}) },
        ]);
      }
    });
  }
  for (let d = 0; d < derived.length; d++) {
    const [keys, entry] = derived[d] as [string[], NameEntryInput];
    if (!names.heldByWrittenOr(names.find(keys), entry.concept)) {
      names.insert(keys, entry);
      size++;
    }
    if (d % (16 * STEP) === 16 * STEP - 1) {
      yield;
    }
  }
  derived.length = 0;
  const cueTrie = node<Cue>();
  for (const cue of options.cues ?? CUES) {
    insert(cueTrie, nameKeys(cue.phrase), cue);
  }

  // The linking placeholder's number, once: the trie is complete.
  const linkId = names.wordId(LINK);
  const typos = options.fuzzy === false ? undefined : yield* fuzzyMatcher(names, options.typoIndex);
  const fuzzyWord = typos?.fuzzyWord;

  /**
   * A node's entries as objects, made on first use and kept (a bounded cache: a server sees the
   * same few thousand names again and again), so that the ranking cached by entry list holds.
   */
  const entryLists = new Map<number, NameEntry[]>();
  function valuesOf(at: number): NameEntry[] {
    let values = entryLists.get(at);
    if (!values) {
      if (entryLists.size >= 50_000) {
        entryLists.clear();
      }
      values = names.values(at);
      entryLists.set(at, values);
    }
    return values;
  }

  /**
   * The entries of a name ranked (what a patient reports first, then by id) and their concepts as
   * candidates. Cached per trie node's entry list, so that a name shared by many concepts of a
   * large KB is ranked once, not at every mention (issue 22: the sort grew with the KB).
   */
  const rankings = new WeakMap<readonly NameEntry[], Ranking>();
  function rankingOf(values: readonly NameEntry[]): Ranking {
    let ranking = rankings.get(values);
    if (!ranking) {
      const ranked = [...values].sort(
        (a, b) =>
          Number(b.canonical) - Number(a.canonical) ||
          (CLASS_RANK[a.concept.class] ?? 9) - (CLASS_RANK[b.concept.class] ?? 9) ||
          a.concept.id.localeCompare(b.concept.id),
      );
      const seen = new Set<string>();
      ranking = {
        ranked,
        candidates: ranked
          .filter((v) => !seen.has(v.concept.id) && seen.add(v.concept.id))
          .map((v) => ({
            conceptId: v.concept.id,
            canonicalName: v.concept.canonicalName,
            class: v.concept.class,
          })),
        exactCase: values.some((v) => v.exactCase !== undefined),
      };
      rankings.set(values, ranking);
    }
    return ranking;
  }

  /** `words`: each unit's word number (`names.wordId`, looked up once per unit). */
  function conceptMatches(units: readonly Unit[], words: Int32Array): Match<NameEntry>[] {
    const found: Match<NameEntry>[] = [];
    for (let i = 0; i < units.length;) {
      const at = longestAt(names, units, words, i, fuzzyWord, linkId);
      const match = at && { from: at.from, to: at.to, values: valuesOf(at.node), fuzzy: at.fuzzy };
      // A name's entries are kept as they are (their ranking cached) unless one is an acronym
      // that must match in the same case.
      const values =
        match && rankingOf(match.values).exactCase
          ? match.values.filter(
              (v) =>
                v.exactCase === undefined ||
                units
                  .slice(match.from, match.to)
                  .map((u) => u.token.text)
                  .join('') === v.exactCase,
            )
          : match?.values;
      if (match && values && values.length > 0) {
        found.push({ ...match, values });
        i = match.to;
      } else {
        i++;
      }
    }
    return [...found, ...coordinated(units, found)].sort((a, b) => a.from - b.from);
  }

  /** Written or derived entries for exactly these keys. */
  const entriesFor = (keys: readonly string[]): NameEntry[] => {
    const at = names.find(keys);
    return at === NONE ? [] : valuesOf(at);
  };

  /**
   * Findings said of the same part by coordinated adjectives: in 'painful swollen testicle' and
   * 'my breast is red, hot and painful' each adjective names its own finding of the part.
   */
  function coordinated(
    units: readonly Unit[],
    found: readonly Match<NameEntry>[],
  ): Match<NameEntry>[] {
    const taken = (i: number) => found.some((m) => i >= m.from && i < m.to);
    const extra: Match<NameEntry>[] = [];
    const add = (i: number, part: readonly string[], concepts: ReadonlySet<string>) => {
      const unit = units[i];
      if (!unit || taken(i) || !PREDICATIVE_ADJECTIVES.has(unit.key)) {
        return false;
      }
      const values = entriesFor([unit.key, ...part]).filter((v) => !concepts.has(v.concept.id));
      if (values.length === 0) {
        return false;
      }
      extra.push({ from: i, to: i + 1, values, fuzzy: 0 });
      return true;
    };
    for (const match of found) {
      const part = match.values.find((v) => v.part)?.part;
      if (!part) {
        continue;
      }
      const concepts = new Set(match.values.map((v) => v.concept.id));
      // Before: 'painful swollen testicle', 'red and swollen eye'.
      let i = match.from - 1;
      while (i >= 0) {
        const unit = units[i] as Unit;
        if (unit.key === 'and' || FILLER_WORDS.has(unit.key)) {
          i--;
          continue;
        }
        if (!add(i, part, concepts)) {
          break;
        }
        i--;
      }
      // After a predicative ('my breast is red'): ', hot and painful'.
      const last = units[match.to - 1];
      if (!last || !PREDICATIVE_ADJECTIVES.has(last.key)) {
        continue;
      }
      let j = match.to;
      while (j < units.length) {
        const unit = units[j] as Unit;
        if ((unit.key === 'and' || FILLER_WORDS.has(unit.key)) && !unit.comma) {
          j++;
          continue;
        }
        if (unit.key === 'and') {
          j++;
          continue;
        }
        if (!add(j, part, concepts)) {
          break;
        }
        j++;
      }
    }
    return extra;
  }

  function recogniseSentence(text: string, sentence: Sentence): ConceptEntity[] {
    const tokens = tokenise(sentence.text).map((t) => ({
      ...t,
      start: t.start + sentence.start,
      end: t.end + sentence.start,
    }));
    const units = unitsOf(tokens);
    // Each unit's word number, looked up once: the dictionary of a large terminology is a large
    // map, and each look-up in it costs more as it grows.
    const words = new Int32Array(units.length);
    for (let i = 0; i < units.length; i++) {
      const u = units[i] as Unit;
      let id = names.wordId(u.key);
      // Texting drops the g of '-ing' ('throwin up', 'killin me'): read it back when that
      // makes a word the dictionary knows.
      if (id === NONE && /^\p{L}{3,}in$/u.test(u.token.text)) {
        const key = unitKey(`${u.token.text}g`);
        id = names.wordId(key);
        if (id !== NONE) {
          units[i] = { ...u, key };
        }
      }
      words[i] = id;
    }
    let mentions = conceptMatches(units, words);
    const hits = [...cueMatches(cueTrie, units, mentions), ...yearCues(units)];
    mentions = mentions.filter((m) => hits.every((h) => !(h.from < m.to && m.from < h.to)));

    const scopes = contextScopes(units, hits);

    const entities = mentions.map((m): ConceptEntity => {
      const inScope = (category: CueCategory) =>
        scopes.some((s) => s.category === category && m.from >= s.from && m.from < s.to);
      const { ranked, candidates } = rankingOf(m.values);
      const best = ranked[0] as NameEntry;
      const first = units[m.from] as Unit;
      const last = units[m.to - 1] as Unit;
      const negated = inScope('negation');
      // A condition named in a question ('Chest infection?') is a worry, not a report.
      const asked = best.concept.class === 'condition' && /\?\s*$/u.test(sentence.text);
      const hypothetical = inScope('hypothetical');
      const presence: Presence = negated
        ? 'deny'
        : inScope('possibility') || hypothetical || asked
          ? 'unsure'
          : 'endorse';
      return {
        category: 'concept' as const,
        start: first.token.start,
        end: last.last.end,
        original: text.slice(first.token.start, last.last.end),
        conceptId: best.concept.id,
        canonicalName: best.concept.canonicalName,
        class: best.concept.class,
        negated,
        presence,
        context: { historical: inScope('historical'), family: inScope('family'), hypothetical },
        matched: best.name,
        fuzzy: m.fuzzy > 0,
        candidates: candidates.map((c) => ({ ...c })),
      };
    });
    const medications = entities.filter((e) => e.class === 'medication');
    readDoseFrequency(text, medications, sentence.end).forEach((found, i) => {
      Object.assign(medications[i] as ConceptEntity, found);
    });
    return entities;
  }

  const byId = new Map<string, Concept>();
  for (let c = 0; c < concepts.length; c++) {
    const concept = concepts[c] as Concept;
    byId.set(concept.id, concept);
    if (c % (64 * STEP) === 64 * STEP - 1) {
      yield;
    }
  }
  return {
    size,
    ready: Promise.resolve(),
    lookup: (id) => byId.get(id),
    recognise(text) {
      typos?.startText();
      const sentences = splitSentences(text);
      const entities = sentences.flatMap((s) => recogniseSentence(text, s));
      return { text, sentences, entities, onsets: recogniseOnsets(text) };
    },
  };
}
