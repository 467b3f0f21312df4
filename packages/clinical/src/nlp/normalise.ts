/**
 * Word keys of the recogniser: how a word of a name or of a message is reduced before matching,
 * so that the ways one word is written meet. Every rule here applies the same way to names and to
 * text, so it can only make two spellings meet, never change what a name means:
 *
 * - `wordKey`: lower case, accents and apostrophes removed, plural → singular.
 * - `matchKey`: `wordKey`, then texting shorthand ('rly' → 'really'), British → American spelling
 *   ('diarrhoea' → 'diarrhea', 'colour' → 'color', 'fibre' → 'fiber'), a light stemmer for tense
 *   and '-y' adjectives ('vomited', 'vomiting', 'vomitting' → 'vomit'; 'itchy' → 'itch'), and
 *   lay words for the same thing ('wee', 'urine' → 'pee'; 'belly', 'stomach' → 'tummy').
 */

/**
 * The matching key of a word: lower case, accents and apostrophes removed, and a simple
 * plural → singular ('stools' → 'stool', 'rashes' → 'rash', 'allergies' → 'allergy').
 */
export function wordKey(word: string): string {
  const w = word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]/gu, '');
  if (w.length <= 3 || !w.endsWith('s') || /(ss|us|is)$/u.test(w)) {
    return w;
  }
  if (w.endsWith('ies') && w.length > 4) {
    return `${w.slice(0, -3)}y`;
  }
  if (/(shes|xes|zes|sses|tches)$/u.test(w)) {
    return w.slice(0, -2);
  }
  return w.slice(0, -1);
}

/** Texting shorthand and dropped letters, read as the word meant (before any other rule). */
export const TEXTING: Readonly<Record<string, string>> = {
  rly: 'really',
  realy: 'really',
  v: 'very',
  n: 'and',
  nd: 'and',
  cnt: 'cant',
  carnt: 'cant',
  cannae: 'cant',
  dnt: 'dont',
  thru: 'through',
  nite: 'night',
  evry: 'every',
  r: 'are',
  u: 'you',
  ur: 'your',
  coz: 'because',
  cos: 'because',
  cuz: 'because',
  bc: 'because',
  abt: 'about',
  wk: 'week',
  wks: 'weeks',
  hrs: 'hours',
  temp: 'temperature',
  tum: 'tummy',
  preg: 'pregnant',
  meds: 'medicines',
  tabs: 'tablets',
  gonna: 'going to',
  wanna: 'want to',
  feelin: 'feeling',
};

/** Words that name the same thing in lay and clinical language (keys after stemming). */
const SAME_THING: Readonly<Record<string, string>> = {
  wee: 'pee',
  urine: 'pee',
  urin: 'pee',
  urinat: 'pee',
  urination: 'pee',
  piss: 'pee',
  poop: 'poo',
  stool: 'poo',
  fece: 'poo',
  feces: 'poo',
  belly: 'tummy',
  bell: 'tummy',
  stomach: 'tummy',
  abdomen: 'tummy',
  abdominal: 'tummy',
  mom: 'mum',
  mommy: 'mum',
  mummy: 'mum',
  mam: 'mum',
  boob: 'breast',
  titty: 'breast',
  puk: 'vomit',
  spew: 'vomit',
  achy: 'ach',
  agony: 'pain',
  agonis: 'pain',
  agoniz: 'pain',
  sulph: 'sulf',
  sulphat: 'sulfat',
  grey: 'gray',
};

/**
 * Words the stemmer would send to another word's key: 'spotting' is not 'spots', 'scared' not
 * 'scar', and 'achy' (the whole body: 'run down and achy') not a part's 'ache' ('they ache').
 */
const KEEP: Readonly<Record<string, string>> = {
  spotting: 'spotting',
  spotted: 'spotting',
  scared: 'scared',
  scare: 'scared',
  scary: 'scared',
  fitting: 'fitting',
  wound: 'wound',
  winded: 'winded',
  achy: 'achy',
  achey: 'achy',
};

const UNDOUBLE = /([bdgmnprt])\1$/u;

/** 'ing' / 'ed' / '-y' endings off, for words long enough that the rest is still a word. */
function stem(w: string): string {
  let s = w;
  if (s.length >= 6 && s.endsWith('ing')) {
    s = s.slice(0, -3);
    s = UNDOUBLE.test(s) ? s.slice(0, -1) : s;
  } else if (s.length >= 5 && s.endsWith('ied')) {
    s = `${s.slice(0, -3)}y`;
  } else if (s.length >= 5 && s.endsWith('ed') && !s.endsWith('eed')) {
    s = s.slice(0, -2);
    s = UNDOUBLE.test(s) ? s.slice(0, -1) : s;
  }
  if (s.length >= 5 && s.endsWith('y') && !/[aeiou]y$/u.test(s)) {
    s = s.slice(0, -1);
    s = UNDOUBLE.test(s) && s.length > 4 ? s.slice(0, -1) : s;
  }
  if (s.length >= 4 && s.endsWith('e') && !/[aeiouy]e$/u.test(s)) {
    s = s.slice(0, -1);
  }
  return s;
}

/** British → American spelling of one (lower-case) word. */
export function americanSpelling(w: string): string {
  let s = w;
  if (s.length >= 6) {
    s = s.replace(/ae(?=.)/gu, 'e').replace(/oe(?=.)/gu, 'e');
    s = s.replace(/our(s|ed|ing)?$/u, 'or$1');
  }
  if (s.length >= 7) {
    s = s.replace(/([^aeiou])([iy])s(e|ed|es|ing|ation|ations)$/u, '$1$2z$3');
  }
  if (s.length >= 5) {
    s = s.replace(/([^aeiou])re$/u, '$1er');
  }
  return s;
}

const keyCache = new Map<string, string>();

/** The key a word of a name or a message is matched by (see the module comment). */
export function matchKey(word: string): string {
  const cached = keyCache.get(word);
  if (cached !== undefined) {
    return cached;
  }
  let key = wordKey(word);
  const kept = KEEP[key];
  if (kept !== undefined) {
    key = kept;
  } else if (/^\p{L}+$/u.test(key)) {
    const spelt = americanSpelling(key);
    const stemmed = stem(spelt);
    const same = SAME_THING[spelt] ?? SAME_THING[stemmed];
    key = same === undefined ? stemmed : stem(same);
  }
  if (keyCache.size < 200_000) {
    keyCache.set(word, key);
  }
  return key;
}

/** Expands texting shorthand in a word list ('gonna' is two words). */
export function expandTexting(words: readonly string[]): string[] {
  return words.flatMap((w) => {
    const meant = TEXTING[wordKey(w)];
    return meant === undefined ? [w] : meant.split(' ');
  });
}
