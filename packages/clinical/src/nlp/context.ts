import type { Cue, CueCategory } from './cues.ts';
import type { Match, NameEntry, TrieNode, Unit } from './matching.ts';
import { CLAUSE_JOINERS, CLAUSE_STARTERS, SUBJECTS } from './word-lists.ts';

/* Context: cue phrases found in a sentence and the scopes (negation, past, family…) they open. */

export interface CueHit {
  cue: Cue;
  from: number;
  to: number;
}

const IN_YEAR: Cue = { phrase: 'in <year>', category: 'historical', direction: 'backward' };

/** 'in 2019', 'back in 2015': a year says what comes before it happened then. */
export function yearCues(units: readonly Unit[]): CueHit[] {
  const hits: CueHit[] = [];
  units.forEach((u, i) => {
    const year = Number(u.key);
    if (i > 0 && units[i - 1]?.key === 'in' && year >= 1920 && year < new Date().getFullYear()) {
      hits.push({ cue: IN_YEAR, from: i - 1, to: i + 1 });
    }
  });
  return hits;
}

/** Backward cues look at most this many words back. */
const BACKWARD_WINDOW = 6;

/** Cue phrases of a sentence, where no longer name overlaps them. */
export function cueMatches(
  cueTrie: TrieNode<Cue>,
  units: readonly Unit[],
  mentions: readonly Match<NameEntry>[],
): CueHit[] {
  // Where a cue and a name overlap the longer wins ('no appetite' is a name, 'worried about' a
  // cue; on a tie the name). A cue that loses may still be read shorter: in 'havent been sick'
  // the name 'been sick' beats the cue 'havent been', leaving the cue 'havent'.
  const found: CueHit[] = [];
  for (let i = 0; i < units.length;) {
    const readings = cueReadingsAt(cueTrie, units, i).filter((r) =>
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
function cueReadingsAt(cueTrie: TrieNode<Cue>, units: readonly Unit[], from: number): Match<Cue>[] {
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

/** A span of units a cue's category applies to. */
export interface Scope {
  category: CueCategory;
  from: number;
  to: number;
}

/** The scopes the cues of a sentence open, up to clause boundaries and terminators. */
export function contextScopes(units: readonly Unit[], hits: readonly CueHit[]): Scope[] {
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

  const scopes: Scope[] = [];
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
  return scopes;
}
