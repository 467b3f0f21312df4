import type { Cue, CueCategory, CueDirection } from './cues.ts';

/**
 * Importers of the open context trigger lists, so a site can run the recogniser with them (alone
 * or with the project's chat cues, `CUES`): NegEx's triggers (Chapman et al.,
 * `negex_triggers.txt`) and medspaCy's ConText rules (`context_rules.json`). Phrases are lower
 * case with their apostrophes dropped, as the recogniser keys words.
 */

const NEGEX_TAGS: Record<string, { category: CueCategory; direction: CueDirection }> = {
  PREN: { category: 'negation', direction: 'forward' },
  POST: { category: 'negation', direction: 'backward' },
  PREP: { category: 'possibility', direction: 'forward' },
  POSP: { category: 'possibility', direction: 'backward' },
  PSEU: { category: 'pseudo', direction: 'forward' },
  CONJ: { category: 'terminate', direction: 'terminate' },
};

const CONTEXT_CATEGORIES: Record<string, CueCategory> = {
  NEGATED_EXISTENCE: 'negation',
  POSSIBLE_EXISTENCE: 'possibility',
  HYPOTHETICAL: 'hypothetical',
  HISTORICAL: 'historical',
  FAMILY: 'family',
};

const DIRECTIONS: Record<string, CueDirection> = {
  FORWARD: 'forward',
  BACKWARD: 'backward',
  BIDIRECTIONAL: 'bidirectional',
  TERMINATE: 'terminate',
};

const phraseOf = (text: string) =>
  text.trim().toLowerCase().replace(/['’]/gu, '').replace(/\s+/gu, ' ');

/** NegEx's trigger file: one `phrase [TAG]` a line (PREN, POST, PREP, POSP, PSEU, CONJ). */
export function importNegexTriggers(text: string): Cue[] {
  const out: Cue[] = [];
  for (const line of text.split(/\r?\n/u)) {
    const match = /^(.*?)\s+\[(\w+)\]\s*$/u.exec(line);
    const label = match?.[2] === undefined ? undefined : NEGEX_TAGS[match[2]];
    if (match?.[1] !== undefined && label && phraseOf(match[1]) !== '') {
      out.push({ phrase: phraseOf(match[1]), ...label });
    }
  }
  return out;
}

/**
 * medspaCy's ConText rules (`{ context_rules: [{ category, literal, direction }] }`): the
 * literal of each rule of a category the recogniser knows; a TERMINATE direction is a
 * terminating cue whatever its category. Token patterns are not read: the literal stands for them.
 */
export function importContextRules(json: unknown): Cue[] {
  const rules = (json as { context_rules?: unknown }).context_rules;
  if (!Array.isArray(rules)) {
    throw new Error('not ConText rules: expected { context_rules: [...] }');
  }
  const out: Cue[] = [];
  for (const rule of rules as { category?: unknown; literal?: unknown; direction?: unknown }[]) {
    const direction =
      typeof rule.direction === 'string' ? DIRECTIONS[rule.direction.toUpperCase()] : undefined;
    const category =
      direction === 'terminate'
        ? 'terminate'
        : typeof rule.category === 'string'
          ? CONTEXT_CATEGORIES[rule.category]
          : undefined;
    if (direction && category && typeof rule.literal === 'string' && phraseOf(rule.literal)) {
      out.push({ phrase: phraseOf(rule.literal), category, direction });
    }
  }
  return out;
}

/** Cues joined without repeating a phrase of the same category and direction; the first wins. */
export function mergeCues(...lists: readonly (readonly Cue[])[]): Cue[] {
  const seen = new Set<string>();
  const out: Cue[] = [];
  for (const cue of lists.flat()) {
    const key = `${cue.category}/${cue.direction}/${cue.phrase}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(cue);
    }
  }
  return out;
}
