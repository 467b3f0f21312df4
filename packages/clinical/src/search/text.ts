/** Text helpers of concept search (issue 22): normalisation and bounded edit distances. */

/**
 * Normalises text for matching: lower case, accents removed, anything but letters and digits
 * becomes a space, spaces collapsed. 'Crohn’s Disease' → 'crohn s disease'.
 */
export function normaliseText(text: string): string {
  // Plain ASCII skips the Unicode steps (NFD and marks change nothing in it), and a name already
  // normalised is returned as it is: a large build then makes no garbage strings for it.
  let ascii = true;
  let normal = text.length > 0 && text.charCodeAt(0) !== 32;
  for (let i = 0; i < text.length && ascii; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      ascii = false;
    } else if (normal && !((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      normal = c === 32 && i + 1 < text.length && text.charCodeAt(i + 1) !== 32;
    }
  }
  if (ascii) {
    return normal
      ? text
      : text
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, ' ')
          .trim();
  }
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Edits allowed for a token of this length: none up to 3 letters, 1 up to 6, then 2. */
export function allowedEdits(length: number): number {
  return length <= 3 ? 0 : length <= 6 ? 1 : 2;
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), giving up and
 * returning `max + 1` as soon as the distance must exceed `max`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) {
    return max + 1;
  }
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (prevPrev[j - 2] ?? 0) + 1);
      }
      row.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) {
      return max + 1;
    }
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length] ?? max + 1;
}

// Reused rows of the bounded edit distance (one search runs at a time: JavaScript is single-threaded).
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/** `boundedEditDistance(q, t.slice(0, tEnd), max)` without allocating. */
export function editsWithin(q: string, t: string, tEnd: number, max: number): number {
  const n = q.length;
  if (Math.abs(n - tEnd) > max) {
    return max + 1;
  }
  if (rowA.length <= n + 1) {
    rowA = new Int32Array(2 * n + 2);
    rowB = new Int32Array(2 * n + 2);
    rowC = new Int32Array(2 * n + 2);
  }
  let prevPrev = rowA;
  let prev = rowB;
  let row = rowC;
  for (let j = 0; j <= n; j++) {
    prev[j] = j;
  }
  for (let i = 1; i <= tEnd; i++) {
    const ti = t.charCodeAt(i - 1);
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const qj = q.charCodeAt(j - 1);
      let v = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + (qj === ti ? 0 : 1),
      );
      if (i > 1 && j > 1 && qj === t.charCodeAt(i - 2) && q.charCodeAt(j - 2) === ti) {
        v = Math.min(v, (prevPrev[j - 2] as number) + 1);
      }
      row[j] = v;
      if (v < rowMin) {
        rowMin = v;
      }
    }
    if (rowMin > max) {
      return max + 1;
    }
    const spare = prevPrev;
    prevPrev = prev;
    prev = row;
    row = spare;
  }
  return prev[n] as number;
}
