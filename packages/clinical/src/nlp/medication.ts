/**
 * Dose and frequency of a medication mention, read from the words right after it:
 * 'ibuprofen 400 mg twice a day', 'salbutamol 2 puffs when needed', 'metformin and ramipril
 * every morning' (a frequency after a list of medicines is every one's).
 */

/** The dose and frequency words, as written. */
export interface DoseFrequency {
  dose?: string;
  frequency?: string;
}

const NUMBER = String.raw`\d+(?:[.,]\d+)?`;
const UNIT = String.raw`(?:mg|milligrams?|mcg|micrograms?|µg|ug|g|grams?|ml|mls|millilitres?|milliliters?|units?|iu|puffs?|tablets?|tabs?|pills?|drops?|sachets?|capsules?|caps?|sprays?|patch(?:es)?|spoons?|teaspoons?|5ml spoons?)`;
const DOSE = new RegExp(String.raw`^[\s,]*(?:x\s*)?(${NUMBER}\s*${UNIT})(?![\p{L}\d])`, 'iu');

const TIMES = String.raw`(?:once|twice|three times|four times|thrice|\d+\s*(?:times|x))`;
const PER = String.raw`(?:a|per|an|each|every)\s+(?:day|daily|night|week|morning|evening|hour|month)`;
const FREQUENCY = new RegExp(
  String.raw`^[\s,]*(` +
    [
      String.raw`${TIMES}\s+${PER}`,
      String.raw`${TIMES}\s+(?:daily|nightly|weekly)`,
      String.raw`(?:every|each)\s+${NUMBER}(?:\s*(?:-|to)\s*${NUMBER})?\s*(?:hours?|hrs?|h|days?)`,
      String.raw`(?:every|each)\s+(?:morning|night|evening|day|week|other day|4 hours|four hours|six hours)`,
      String.raw`(?:once|twice)\s+(?:daily|a day)`,
      String.raw`(?:daily|nightly|weekly|at night|in the morning|in the mornings|at bedtime|before bed)`,
      String.raw`(?:when|as|if)\s+(?:needed|required|necessary)`,
      String.raw`(?:prn|bd|bid|tds|tid|qds|qid|od|mane|nocte)`,
    ].join('|') +
    String.raw`)(?![\p{L}\d])`,
  'iu',
);

/** Between two medicines of one list: ',', 'and', '&', '+'. */
const LIST_GAP = /^\s*(?:,|and|&|\+|,\s*and)\s*$/iu;

/**
 * Reads the dose and frequency after each medication span of one sentence. `spans` are the
 * medication mentions in text order; `end` is where the sentence ends.
 */
export function readDoseFrequency(
  text: string,
  spans: readonly { start: number; end: number }[],
  end: number,
): DoseFrequency[] {
  return spans.map((span, i) => {
    // A list of medicines shares what follows its last one.
    let from = span.end;
    for (let j = i + 1; j < spans.length; j++) {
      const next = spans[j] as { start: number; end: number };
      if (!LIST_GAP.test(text.slice(from, next.start))) {
        break;
      }
      from = next.end;
    }
    const own = from === span.end;
    const rest = text.slice(from, end);
    const result: DoseFrequency = {};
    let at = 0;
    const dose = own ? DOSE.exec(rest) : null;
    if (dose?.[1] !== undefined) {
      result.dose = dose[1];
      at = dose[0].length;
    }
    const frequency = FREQUENCY.exec(rest.slice(at));
    if (frequency?.[1] !== undefined) {
      result.frequency = frequency[1];
    }
    return result;
  });
}
