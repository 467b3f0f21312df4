import { describe, expect, it } from 'vitest';
import { groupBy, type Cell } from './agreement-figures.ts';

// The agreement query returns one cell per (job type, pair); the per-type and per-pair groups are
// their sums. Two types × two pairs, with a label pair present in several cells.
const cell = (type: string, lo: string, hi: string, labels: [string, string, number][]): Cell => ({
  type,
  lo,
  hi,
  samples: labels.length,
  matched: 1,
  spans: 3,
  labels,
});
const cells: Cell[] = [
  cell('a', 'u1', 'u2', [['x', 'x', 2]]),
  cell('a', 'u1', 'u3', [
    ['x', 'x', 1],
    ['x', 'y', 4],
  ]),
  cell('b', 'u1', 'u2', [
    ['x', 'y', 1],
    ['y', 'x', 5],
  ]),
  { type: 'b', lo: 'u2', hi: 'u3', samples: 1, matched: 0, spans: 0, labels: null },
];

describe('agreement cells summed per type and per pair', () => {
  it('adds samples and spans and merges the counts of each label pair', () => {
    const byType = groupBy(cells, (row) => row.type);
    expect(byType.get('a')).toEqual({
      samples: 3,
      matched: 2,
      spans: 6,
      labels: [
        ['x', 'x', 3],
        ['x', 'y', 4],
      ],
    });
    expect(byType.get('b')).toEqual({
      samples: 3,
      matched: 1,
      spans: 3,
      labels: [
        ['x', 'y', 1],
        ['y', 'x', 5],
      ],
    });
    const byPair = groupBy(cells, (row) => `${row.lo}/${row.hi}`);
    expect([...byPair.keys()]).toEqual(['u1/u2', 'u1/u3', 'u2/u3']);
    expect(byPair.get('u1/u2')).toEqual({
      samples: 3,
      matched: 2,
      spans: 6,
      labels: [
        ['x', 'x', 2],
        ['x', 'y', 1],
        ['y', 'x', 5],
      ],
    });
    expect(byPair.get('u2/u3')).toEqual({ samples: 1, matched: 0, spans: 0, labels: [] });
  });
});
