import type { Token } from './tokenise.ts';
import { tokenise } from './tokenise.ts';
import { matchKey, TEXTING, wordKey } from './normalise.ts';
import { PREDICATIVE_ADJECTIVES } from './word-lists.ts';

/*
 * Names as matching keys: how a word and a name are keyed, and the other ways of saying a name
 * that the recogniser derives by rule.
 */

// Possessives name the same finding whoever it belongs to: 'lost her voice' is 'lost my voice',
// and 'pain in the chest' is 'pain in my chest'.
const POSSESSIVES = new Set(['my', 'his', 'her', 'their', 'your', 'our', 'the']);

/** The matching key of a word in running text or a name: `wordKey`, possessives as 'my'. */
export function unitKey(word: string): string {
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
export const CANNOT = 'cant';

const CANNOT_STARTS = new Set(CANNOT_PHRASES.map((phrase) => phrase[0]));

/** Length of the 'cannot' phrase starting at `keys[from]`, or 0. */
export function cannotAt(keys: readonly string[], from: number): number {
  if (!CANNOT_STARTS.has(keys[from])) {
    return 0;
  }
  for (const phrase of CANNOT_PHRASES) {
    if (phrase.every((word, i) => keys[from + i] === word)) {
      return phrase.length;
    }
  }
  return 0;
}

/** Splits a name into matching keys the same way text is split (punctuation dropped). */
export function nameKeys(name: string): string[] {
  return keysOf(tokenise(name).filter((t) => t.kind !== 'punct'));
}

/**
 * A name's matching keys and its words (`wordKey` of each word, for the rules of
 * `derivedNames`), from one tokenisation.
 */
export function nameKeysAndWords(name: string): { keys: string[]; words: string[] } {
  const tokens = tokenise(name).filter((t) => t.kind !== 'punct');
  return { keys: keysOf(tokens), words: tokens.map((t) => wordKey(t.text)) };
}

function keysOf(tokens: readonly Token[]): string[] {
  const keys = tokens.flatMap((t) =>
    (TEXTING[wordKey(t.text)]?.split(' ') ?? [t.text]).map(unitKey),
  );
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
export function partOf(keys: readonly string[]): readonly string[] | undefined {
  const [first, ...rest] = keys;
  return (keys.length === 2 || keys.length === 3) &&
    first !== undefined &&
    PREDICATIVE_ADJECTIVES.has(first) &&
    rest.every((word) => !PREDICATIVE_ADJECTIVES.has(word) && /^\p{L}+$/u.test(word))
    ? rest
    : undefined;
}

/** The trie key standing for one or more linking words ('is', 'feels', 'has been'…). */
export const LINK = '\u0000link';
