/** How a time expression places an onset: a start point, a duration, a time ago, or a moment. */
export type OnsetRelation = 'since' | 'duration' | 'ago' | 'point';

/** An onset or time expression ('since yesterday', 'for 3 days', 'two weeks ago', 'last night'). */
export interface OnsetEntity {
  category: 'onset';
  start: number;
  end: number;
  original: string;
  relation: OnsetRelation;
  /** The count, when the expression has one ('for 3 days' → 3, 'a few days' → 3). */
  amount?: number;
  /** The unit, singular: minute, hour, day, night, week, month, year. */
  unit?: string;
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  couple: 2,
  few: 3,
  several: 4,
};

const NUM =
  '(?:\\d+(?:\\.\\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\\s+)?few|several|(?:a\\s+)?couple(?:\\s+of)?|some)';
const UNIT = '(?:min(?:ute)?s?|hours?|hrs?|days?|nights?|weeks?|wks?|months?|years?|yrs?)';
const DAY =
  '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thurs?|fri|sat|sun)';
const POINT =
  '(?:yesterday(?:\\s+(?:morning|afternoon|evening))?|last\\s+night|this\\s+(?:morning|afternoon|evening|week)|earlier\\s+today|today|tonight|overnight|last\\s+(?:week|month|year|weekend)|the\\s+weekend|the\\s+other\\s+day)';

const PATTERNS: { relation: OnsetRelation; source: string }[] = [
  {
    relation: 'since',
    source: `since\\s+(?:${POINT}|(?:last\\s+)?${DAY}|\\d{1,2}(?::\\d{2})?\\s*(?:am|pm)|${NUM}\\s+${UNIT}\\s+ago|then|i\\s+woke\\s+up|this\\s+started)`,
  },
  {
    relation: 'duration',
    source: `(?:for|in)\\s+(?:about\\s+|around\\s+|nearly\\s+|almost\\s+|over\\s+|more\\s+than\\s+|less\\s+than\\s+)?(?:the\\s+)?(?:(?:last|past)\\s+)?${NUM}\\s+(?:more\\s+)?${UNIT}`,
  },
  {
    relation: 'duration',
    source: `(?:for|over)\\s+(?:the\\s+)?(?:last|past)\\s+${UNIT}|(?:the\\s+)?(?:last|past)\\s+${NUM}\\s+${UNIT}|for\\s+(?:ages|a\\s+while|a\\s+bit|(?:hours|days|weeks|months|years))|all\\s+(?:day|night|week)`,
  },
  {
    relation: 'ago',
    source: `(?:about\\s+|around\\s+)?${NUM}\\s+${UNIT}\\s+ago|a\\s+while\\s+ago`,
  },
  { relation: 'point', source: `(?:on|last)\\s+${DAY}|${POINT}` },
];

const PATTERN_RES = PATTERNS.map((p) => ({
  relation: p.relation,
  re: new RegExp(`(?<![\\p{L}\\p{N}])(?:${p.source})(?![\\p{L}\\p{N}])`, 'giu'),
}));

function quantity(original: string): { amount?: number; unit?: string } {
  const lower = original.toLowerCase();
  const unitMatch = new RegExp(`(?<=\\s)(${UNIT})(?:\\s+ago)?$`, 'u').exec(lower);
  if (!unitMatch?.[1]) {
    return {};
  }
  const raw = unitMatch[1].replace(/s$/u, '');
  const unit = { min: 'minute', minute: 'minute', hr: 'hour', wk: 'week', yr: 'year' }[raw] ?? raw;
  const before = lower.slice(0, unitMatch.index).trim().split(/\s+/u);
  for (let i = before.length - 1; i >= 0; i--) {
    const word = before[i] ?? '';
    if (/^\d+(\.\d+)?$/u.test(word)) {
      return { amount: Number(word), unit };
    }
    const value = NUMBER_WORDS[word];
    if (value !== undefined) {
      return { amount: value, unit };
    }
  }
  return { unit };
}

/** Finds onset and time expressions; where two overlap the longer (then the earlier) is kept. */
export function recogniseOnsets(text: string): OnsetEntity[] {
  const found: OnsetEntity[] = [];
  for (const { relation, re } of PATTERN_RES) {
    for (const match of text.matchAll(re)) {
      const original = match[0];
      found.push({
        category: 'onset',
        start: match.index,
        end: match.index + original.length,
        original,
        relation,
        ...(relation === 'point' ? {} : quantity(original)),
      });
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: OnsetEntity[] = [];
  for (const onset of found) {
    if (kept.every((k) => onset.end <= k.start || onset.start >= k.end)) {
      kept.push(onset);
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}
