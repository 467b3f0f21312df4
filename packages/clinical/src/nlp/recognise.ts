import type { Concept, ConceptClass } from '../kb/format.ts';
import { OBSERVATION_CLASSES } from '../kb/format.ts';
import { allowedEdits, boundedEditDistance } from '../search/concept-search.ts';
import type { Cue, CueCategory } from './cues.ts';
import { CUES } from './cues.ts';
import type { OnsetEntity } from './onset.ts';
import { recogniseOnsets } from './onset.ts';
import type { Sentence, Token } from './tokenise.ts';
import { splitSentences, tokenise } from './tokenise.ts';
import { readDoseFrequency } from './medication.ts';
import { matchKey, TEXTING, wordKey } from './normalise.ts';
import {
  CLAUSE_JOINERS,
  CLAUSE_STARTERS,
  COMMON_WORDS,
  FILLER_WORDS,
  LINKING_WORDS,
  PREDICATIVE_ADJECTIVES,
  SUBJECTS,
} from './word-lists.ts';

export { wordKey } from './normalise.ts';
export { FILLER_WORDS, LINKING_WORDS, PREDICATIVE_ADJECTIVES } from './word-lists.ts';

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
}

/** A dictionary recogniser built once over a set of concepts. */
export interface Recogniser {
  recognise(text: string): Recognition;
  /** A concept given to the recogniser, by id. */
  lookup(id: string): Concept | undefined;
  /** Number of distinct names in the dictionary. */
  readonly size: number;
}

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

// Possessives name the same finding whoever it belongs to: 'lost her voice' is 'lost my voice',
// and 'pain in the chest' is 'pain in my chest'.
const POSSESSIVES = new Set(['my', 'his', 'her', 'their', 'your', 'our', 'the']);

/** The matching key of a word in running text or a name: `wordKey`, possessives as 'my'. */
function unitKey(word: string): string {
  const key = matchKey(word);
  return POSSESSIVES.has(key) ? 'my' : key;
}

/**
 * Ways of saying 'cannot', read as one word: 'can barely open my mouth', 'unable to sleep' and
 * 'hard to hear' are 'can't open my mouth', 'can't sleep' and 'can't hear'.
 */
const CANNOT_PHRASES: readonly (readonly string[])[] = (
  [
    ['cannot'],
    ['couldnt'],
    ['can', 'not'],
    ['could', 'not'],
    ['can', 'barely'],
    ['can', 'hardly'],
    ['could', 'barely'],
    ['could', 'hardly'],
    ['unable', 'to'],
    ['not', 'able', 'to'],
    ['hard', 'to'],
    ['struggling', 'to'],
    ['struggle', 'to'],
  ] as const
).map((phrase) => phrase.map(matchKey));
const CANNOT = 'cant';

/** Length of the 'cannot' phrase starting at `keys[from]`, or 0. */
function cannotAt(keys: readonly string[], from: number): number {
  for (const phrase of CANNOT_PHRASES) {
    if (phrase.every((word, i) => keys[from + i] === word)) {
      return phrase.length;
    }
  }
  return 0;
}

/** Splits a name into matching keys the same way text is split (punctuation dropped). */
export function nameKeys(name: string): string[] {
  const keys = tokenise(name)
    .filter((t) => t.kind !== 'punct')
    .flatMap((t) => (TEXTING[wordKey(t.text)]?.split(' ') ?? [t.text]).map(unitKey));
  const out: string[] = [];
  for (let i = 0; i < keys.length;) {
    const length = cannotAt(keys, i);
    out.push(length > 0 ? CANNOT : (keys[i] as string));
    i += Math.max(length, 1);
  }
  return out;
}

/** Last words of names that say a part hurts: 'knee pain', 'back ache'. */
const PAIN_WORDS = new Set(['pain', 'ache'].map(matchKey));
/** 'PART hurts', 'PART is killing me', 'PART is agony' ('agony' is keyed as 'pain'). */
const HURT_VERBS = [
  ...new Set(['hurt', 'hurting', 'ache', 'aching', 'killing', 'agony'].map(matchKey)),
];
const PAIN_ADJECTIVES = [...new Set(['sore', 'painful', 'aching', 'achy'].map(matchKey))];
const [PAIN, IN, MY] = ['pain', 'in', 'my'].map(matchKey) as [string, string, string];
/** Endings of adjectives ('abdominal', 'pelvic', 'testicular'): not a part to say 'hurts' of. */
const ADJECTIVE_ENDING = /(al|ic|ar|ary|ous|ive|ing|ed|y)$/u;

/**
 * Other ways of saying a name, by rule, so that a paraphrase every patient might use is matched
 * without an alias for each: 'swollen tummy' → 'tummy is swollen' (the linking verb is a
 * placeholder that matches any of LINKING_WORDS); 'knee pain' → 'knee hurts', 'knee aches',
 * 'pain in my knee', 'sore knee', 'painful knee' and their predicative forms.
 */
export function derivedNameKeys(keys: readonly string[], words?: readonly string[]): string[][] {
  return derivedNames(keys, words).map((d) => d.keys);
}

/** A name said another way: its keys, and the body part it describes when it has one. */
export interface DerivedName {
  keys: string[];
  part?: readonly string[];
}

/** `derivedNameKeys` with the part each way describes (for coordination: 'red, hot and sore'). */
export function derivedNames(keys: readonly string[], words = keys): DerivedName[] {
  const out: DerivedName[] = [];
  const predicative = (adjective: string, part: readonly string[]) => {
    out.push({ keys: [...part, LINK, adjective], part }, { keys: [...part, adjective], part });
  };
  const attributive = (adjective: string, part: readonly string[]) =>
    out.push({ keys: [adjective, ...part], part });
  const part0 = partOf(keys);
  if (part0 && keys[0] !== undefined) {
    predicative(keys[0], part0);
  }
  out.push(...reordered(keys, words));
  const last = keys[keys.length - 1];
  const part = keys.slice(0, -1);
  if (
    last !== undefined &&
    PAIN_WORDS.has(last) &&
    part.length >= 1 &&
    part.length <= 2 &&
    part.every((word) => /^\p{L}+$/u.test(word)) &&
    words.slice(0, part.length).every((word) => !ADJECTIVE_ENDING.test(word))
  ) {
    for (const verb of HURT_VERBS) {
      out.push({ keys: [...part, verb], part }, { keys: [...part, LINK, verb], part });
    }
    out.push({ keys: [PAIN, IN, MY, ...part], part });
    for (const adjective of PAIN_ADJECTIVES) {
      attributive(adjective, part);
      predicative(adjective, part);
    }
  }
  return out;
}

const [OF, ON] = ['of', 'on'].map(matchKey) as [string, string];
const LINKED_BY = new Set([IN, OF, ON]);

/**
 * Two nouns said in the other order: 'ankle swelling' as 'swelling in / of / on my ankle', and
 * 'swelling of the skin' or 'loss of appetite' as 'skin swelling', 'appetite loss'.
 */
function reordered(keys: readonly string[], words: readonly string[]): DerivedName[] {
  const nounish = (word: string | undefined) =>
    word !== undefined && /^\p{L}{4,}$/u.test(word) && !ADJECTIVE_ENDING.test(word);
  const [a, b, c, d] = keys;
  if (keys.length === 2 && a && b && nounish(words[0]) && !PREDICATIVE_ADJECTIVES.has(a)) {
    return [IN, OF, ON].map((link) => ({ keys: [b, link, MY, a] }));
  }
  if (keys.length === 3 && a && c && b && LINKED_BY.has(b) && nounish(words[0]) && nounish(c)) {
    return [{ keys: [c, a] }];
  }
  if (keys.length === 4 && a && b && d && LINKED_BY.has(b) && keys[2] === MY && nounish(words[0])) {
    return [{ keys: [d, a] }];
  }
  return [];
}

/** The body part a name 'ADJ PART' describes ('tummy' of 'swollen tummy'), if it is one. */
function partOf(keys: readonly string[]): readonly string[] | undefined {
  const [first, ...rest] = keys;
  return (keys.length === 2 || keys.length === 3) &&
    first !== undefined &&
    PREDICATIVE_ADJECTIVES.has(first) &&
    rest.every((word) => !PREDICATIVE_ADJECTIVES.has(word) && /^\p{L}+$/u.test(word))
    ? rest
    : undefined;
}

/** The trie key standing for one or more linking words ('is', 'feels', 'has been'…). */
const LINK = '\u0000link';

interface Unit {
  key: string;
  token: Token;
  /** The last token of the unit: a 'cannot' phrase ('can barely') is one unit of two tokens. */
  last: Token;
  /** A breaking punctuation mark (',' ':' '(' …) stands between this unit and the previous one. */
  comma: boolean;
}

// Punctuation inside a name or a cue: 'light-headed', 'h/o', "can't".
const TRANSPARENT = new Set(['-', '/', "'", '’', '&']);

function unitsOf(tokens: readonly Token[]): Unit[] {
  // Breaking punctuation is kept as a flag on the next word: scopes may cross it (lists: 'no
  // fever, cough or cold'), names may not.
  const units: Unit[] = [];
  let comma = false;
  for (const token of tokens) {
    if (token.kind === 'punct') {
      if (!TRANSPARENT.has(token.text)) {
        comma = true;
      }
      continue;
    }
    const shorthand = token.text.length <= 6 ? TEXTING[token.text.toLowerCase()] : undefined;
    for (const word of shorthand?.split(' ') ?? [token.text]) {
      units.push({ key: unitKey(word), token, last: token, comma });
      comma = false;
    }
  }
  const keys = units.map((u) => u.key);
  const merged: Unit[] = [];
  for (let i = 0; i < units.length;) {
    const unit = units[i] as Unit;
    let length = cannotAt(keys, i);
    // Only words of one clause merge.
    if (units.slice(i + 1, i + length).some((u) => u.comma)) {
      length = 0;
    }
    if (length > 0) {
      merged.push({ ...unit, key: CANNOT, last: (units[i + length - 1] as Unit).last });
      i += length;
    } else {
      merged.push(unit);
      i++;
    }
  }
  return merged;
}

interface TrieNode<T> {
  children: Map<string, TrieNode<T>>;
  values: T[];
}

const node = <T>(): TrieNode<T> => ({ children: new Map(), values: [] });

function insert<T>(root: TrieNode<T>, keys: readonly string[], value: T): void {
  let at = root;
  for (const key of keys) {
    let next = at.children.get(key);
    if (!next) {
      next = node<T>();
      at.children.set(key, next);
    }
    at = next;
  }
  at.values.push(value);
}

interface NameEntry {
  concept: Concept;
  name: string;
  canonical: boolean;
  /** Said another way by rule (derivedNameKeys), not written in the KB. */
  derived?: boolean;
  /** The body part the name describes ('tummy' of 'swollen tummy'), for coordinated findings. */
  part?: readonly string[];
  /** Short acronyms ('MI', 'PE') only match in the same case. */
  exactCase: string | undefined;
}

interface Match<T> {
  from: number;
  /** Exclusive unit index. */
  to: number;
  values: T[];
  fuzzy: number;
}

/** At most this many filler words inside one name. */
const MAX_FILLERS = 3;

/**
 * Longest dictionary match starting at `from`; ties go to fewer fuzzy words. Inside a name,
 * filler words ('really') may be skipped, and a LINK step takes one or more linking words.
 */
function longestAt<T>(
  root: TrieNode<T>,
  units: readonly Unit[],
  from: number,
  fuzzyWord: ((key: string, node: TrieNode<T>) => TrieNode<T>[]) | undefined,
): Match<T> | undefined {
  let best: Match<T> | undefined;
  const walk = (at: TrieNode<T>, i: number, fuzzy: number, skips: number, word: boolean): void => {
    // A match ends on a word of the name, never on a skipped filler or a linking word.
    if (word && at.values.length > 0 && i > from) {
      const better = !best || i > best.to || (i === best.to && fuzzy < best.fuzzy);
      if (better) {
        best = { from, to: i, values: at.values, fuzzy };
      }
    }
    const unit = units[i];
    if (!unit || (i > from && unit.comma)) {
      return;
    }
    const exact = at.children.get(unit.key);
    if (exact) {
      walk(exact, i + 1, fuzzy, skips, true);
    } else if (fuzzy === 0 && fuzzyWord) {
      for (const next of fuzzyWord(unit.key, at)) {
        walk(next, i + 1, fuzzy + 1, skips, true);
      }
    }
    const link = i > from ? at.children.get(LINK) : undefined;
    if (link && LINKING_WORDS.has(unit.key)) {
      // One or more linking words (and fillers): 'is', 'has been', 'feels really'.
      let j = i;
      while (
        j < units.length &&
        j - i < 4 &&
        !(units[j] as Unit).comma &&
        (LINKING_WORDS.has((units[j] as Unit).key) || FILLER_WORDS.has((units[j] as Unit).key))
      ) {
        j++;
        walk(link, j, fuzzy, skips, false);
      }
    }
    if (
      i > from &&
      !exact &&
      skips < MAX_FILLERS &&
      (FILLER_WORDS.has(unit.key) || LINKING_WORDS.has(unit.key))
    ) {
      walk(at, i + 1, fuzzy, skips + 1, false);
    }
  };
  walk(root, from, 0, 0, false);
  return best;
}

/** The node reached by `keys`, if any. */
function find<T>(root: TrieNode<T>, keys: readonly string[]): TrieNode<T> | undefined {
  let at: TrieNode<T> | undefined = root;
  for (const key of keys) {
    at = at?.children.get(key);
  }
  return at;
}

interface CueHit {
  cue: Cue;
  from: number;
  to: number;
}

const IN_YEAR: Cue = { phrase: 'in <year>', category: 'historical', direction: 'backward' };

/** 'in 2019', 'back in 2015': a year says what comes before it happened then. */
function yearCues(units: readonly Unit[]): CueHit[] {
  const hits: CueHit[] = [];
  units.forEach((u, i) => {
    const year = Number(u.key);
    if (i > 0 && units[i - 1]?.key === 'in' && year >= 1920 && year < new Date().getFullYear()) {
      hits.push({ cue: IN_YEAR, from: i - 1, to: i + 1 });
    }
  });
  return hits;
}

/** A word with its doubled letters single: 'diarhea' and 'diarrhea', 'chils' and 'chills'. */
const undoubledCache = new Map<string, string>();
const undoubled = (word: string): string => {
  let single = undoubledCache.get(word);
  if (single === undefined) {
    single = word.replace(/(\p{L})\1+/gu, '$1');
    if (undoubledCache.size < 100_000) {
      undoubledCache.set(word, single);
    }
  }
  return single;
};
const sameLetters = (a: string, b: string) => [...a].sort().join('') === [...b].sort().join('');

/** Backward cues look at most this many words back. */
const BACKWARD_WINDOW = 6;

/** Builds a recogniser over the names (canonical and aliases) of the given concepts. */
export function createRecogniser(
  concepts: readonly Concept[],
  options: RecogniserOptions = {},
): Recogniser {
  const classes = new Set(options.classes ?? DEFAULT_RECOGNISED_CLASSES);
  const ignored = new Set(
    (options.ignoreNames ?? DEFAULT_IGNORED_NAMES).map((n) => nameKeys(n).join(' ')),
  );
  const names = node<NameEntry>();
  const vocabulary = new Set<string>();
  let size = 0;
  for (const concept of concepts) {
    if (!classes.has(concept.class)) {
      continue;
    }
    const seen = new Set<string>();
    [concept.canonicalName, ...concept.aliases].forEach((name, i) => {
      const keys = nameKeys(name);
      const joined = keys.join(' ');
      if (keys.length === 0 || seen.has(joined) || ignored.has(joined)) {
        return;
      }
      seen.add(joined);
      keys.forEach((k) => vocabulary.add(k));
      const exactCase = name.trim().length <= 2 ? name.trim() : undefined;
      const part = partOf(keys);
      insert(names, keys, {
        concept,
        name,
        canonical: i === 0,
        exactCase,
        ...(part ? { part } : {}),
      });
      size++;
    });
  }
  // Names said another way by rule; a way that is already some concept's written name is left
  // to that concept.
  const derived: [string[], NameEntry][] = [];
  for (const concept of concepts) {
    if (!classes.has(concept.class)) {
      continue;
    }
    for (const name of [concept.canonicalName, ...concept.aliases]) {
      const words = tokenise(name)
        .filter((t) => t.kind !== 'punct')
        .map((t) => wordKey(t.text));
      for (const way of derivedNames(nameKeys(name), words)) {
        derived.push([
          way.keys,
          {
            concept,
            name,
            canonical: false,
            derived: true,
            exactCase: undefined,
            ...(way.part ? { part: way.part } : {}),
          },
        ]);
      }
    }
  }
  for (const [keys, entry] of derived) {
    const at = find(names, keys);
    if (at?.values.some((v) => !v.derived || v.concept.id === entry.concept.id)) {
      continue;
    }
    keys.forEach((k) => k !== LINK && vocabulary.add(k));
    insert(names, keys, entry);
    size++;
  }
  const cueTrie = node<Cue>();
  for (const cue of options.cues ?? CUES) {
    insert(cueTrie, nameKeys(cue.phrase), cue);
  }

  const fuzzyWord =
    options.fuzzy === false
      ? undefined
      : (key: string, at: TrieNode<NameEntry>): TrieNode<NameEntry>[] => {
          // Only words the dictionary does not know and that are no everyday word ('would' is not
          // 'wound'), of five letters or more, and with the right first letter: typos rarely hit
          // the first letter, and short words are too ambiguous. A four-letter word may only have
          // two letters swapped ('pian' for 'pain').
          if (
            key.length < 4 ||
            vocabulary.has(key) ||
            COMMON_WORDS.has(key) ||
            !/^\p{L}+$/u.test(key)
          ) {
            return [];
          }
          const short = key.length === 4;
          const max = short ? 1 : allowedEdits(key.length);
          const found: TrieNode<NameEntry>[] = [];
          for (const [child, next] of at.children) {
            if (
              child.length >= 4 &&
              child[0] === key[0] &&
              (undoubled(child) === undoubled(key) ||
                ((short ? child.length === 4 && sameLetters(child, key) : child.length >= 5) &&
                  boundedEditDistance(key, child, max) <= max))
            ) {
              found.push(next);
            }
          }
          return found;
        };

  function conceptMatches(units: readonly Unit[]): Match<NameEntry>[] {
    const found: Match<NameEntry>[] = [];
    for (let i = 0; i < units.length;) {
      const match = longestAt(names, units, i, fuzzyWord);
      const values = match?.values.filter(
        (v) =>
          v.exactCase === undefined ||
          units
            .slice(match.from, match.to)
            .map((u) => u.token.text)
            .join('') === v.exactCase,
      );
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
  const entriesFor = (keys: readonly string[]): NameEntry[] => find(names, keys)?.values ?? [];

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

  function cueMatches(units: readonly Unit[], mentions: readonly Match<NameEntry>[]): CueHit[] {
    // Where a cue and a name overlap the longer wins ('no appetite' is a name, 'worried about' a
    // cue; on a tie the name). A cue that loses may still be read shorter: in 'havent been sick'
    // the name 'been sick' beats the cue 'havent been', leaving the cue 'havent'.
    const found: CueHit[] = [];
    for (let i = 0; i < units.length;) {
      const readings = cueReadingsAt(units, i).filter((r) =>
        mentions.every((m) => !(r.from < m.to && m.from < r.to) || r.to - r.from > m.to - m.from),
      );
      const match = readings[0];
      if (match) {
        // A phrase can be a cue in two directions: keep every reading.
        for (const cue of match.values) {
          found.push({ cue, from: match.from, to: match.to });
        }
        i = match.to;
      } else {
        i++;
      }
    }
    return found;
  }

  /** Every cue phrase starting at `from`, longest first. */
  function cueReadingsAt(units: readonly Unit[], from: number): Match<Cue>[] {
    const readings: Match<Cue>[] = [];
    let at: TrieNode<Cue> | undefined = cueTrie;
    for (let i = from; at && i < units.length; i++) {
      const unit = units[i] as Unit;
      if (i > from && unit.comma) {
        break;
      }
      at = at.children.get(unit.key);
      if (at && at.values.length > 0) {
        readings.unshift({ from, to: i + 1, values: at.values, fuzzy: 0 });
      }
    }
    return readings;
  }

  function recogniseSentence(text: string, sentence: Sentence): ConceptEntity[] {
    const tokens = tokenise(sentence.text).map((t) => ({
      ...t,
      start: t.start + sentence.start,
      end: t.end + sentence.start,
    }));
    const units = unitsOf(tokens).map((u) => {
      // Texting drops the g of '-ing' ('throwin up', 'killin me'): read it back when that
      // makes a word the dictionary knows.
      if (vocabulary.has(u.key) || !/^\p{L}{3,}in$/u.test(u.token.text)) {
        return u;
      }
      const key = unitKey(`${u.token.text}g`);
      return vocabulary.has(key) ? { ...u, key } : u;
    });
    let mentions = conceptMatches(units);
    const hits = [...cueMatches(units, mentions), ...yearCues(units)];
    mentions = mentions.filter((m) => hits.every((h) => !(h.from < m.to && m.from < h.to)));

    // A scope boundary sits before unit i when a clause starts there.
    const boundary = new Set<number>();
    units.forEach((u, i) => {
      const next = units[i + 1];
      // After 'or' only a new subject starts a clause: 'havent been sick or had any
      // temperature' is one list.
      const starts = u.key === 'or' ? SUBJECTS : CLAUSE_STARTERS;
      if (CLAUSE_JOINERS.has(u.key) && next && starts.has(next.key)) {
        boundary.add(i);
      }
      if (u.comma && CLAUSE_STARTERS.has(u.key)) {
        boundary.add(i);
      }
    });
    const terminators = hits.filter((h) => h.cue.direction === 'terminate');
    const cueStarts = hits.filter((h) => h.cue.category !== 'terminate');
    const stopsForward = (i: number) => boundary.has(i) || terminators.some((t) => t.from === i);
    const stopsBackward = (i: number) =>
      boundary.has(i + 1) || terminators.some((t) => t.to === i + 1);

    const scopes: { category: CueCategory; from: number; to: number }[] = [];
    for (const hit of cueStarts) {
      if (hit.cue.category === 'pseudo') {
        continue;
      }
      const { direction } = hit.cue;
      if (direction === 'forward' || direction === 'bidirectional') {
        // Negation runs through lists ('no fever, cough or cold'); doubt and what-ifs stop at a
        // comma ('I think I have flu, body aches and chills').
        const narrow = hit.cue.category !== 'negation';
        let to = hit.to;
        while (
          to < units.length &&
          !stopsForward(to) &&
          !(narrow && to > hit.to && (units[to] as Unit).comma)
        ) {
          to++;
        }
        scopes.push({ category: hit.cue.category, from: hit.to, to });
      }
      if (direction === 'backward' || direction === 'bidirectional') {
        let from = hit.from;
        while (from > 0 && hit.from - from < BACKWARD_WINDOW && !stopsBackward(from - 1)) {
          from--;
        }
        scopes.push({ category: hit.cue.category, from, to: hit.from });
      }
    }

    const entities = mentions.map((m): ConceptEntity => {
      const inScope = (category: CueCategory) =>
        scopes.some((s) => s.category === category && m.from >= s.from && m.from < s.to);
      const ranked = [...m.values].sort(
        (a, b) =>
          Number(b.canonical) - Number(a.canonical) ||
          (CLASS_RANK[a.concept.class] ?? 9) - (CLASS_RANK[b.concept.class] ?? 9) ||
          a.concept.id.localeCompare(b.concept.id),
      );
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
      const seen = new Set<string>();
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
        candidates: ranked
          .filter((v) => !seen.has(v.concept.id) && seen.add(v.concept.id))
          .map((v) => ({
            conceptId: v.concept.id,
            canonicalName: v.concept.canonicalName,
            class: v.concept.class,
          })),
      };
    });
    const medications = entities.filter((e) => e.class === 'medication');
    readDoseFrequency(text, medications, sentence.end).forEach((found, i) => {
      Object.assign(medications[i] as ConceptEntity, found);
    });
    return entities;
  }

  const byId = new Map(concepts.map((c) => [c.id, c]));
  return {
    size,
    lookup: (id) => byId.get(id),
    recognise(text) {
      const sentences = splitSentences(text);
      const entities = sentences.flatMap((s) => recogniseSentence(text, s));
      return { text, sentences, entities, onsets: recogniseOnsets(text) };
    },
  };
}
