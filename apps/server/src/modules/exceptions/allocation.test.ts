import { describe, expect, it } from 'vitest';
import { allocate, freePlaces, mayTake, type ReviewerLoad } from './allocation.ts';

const CAPACITY = 3;
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 9, minute));
const reviewer = (userId: string, held = 0, idleMinute = 0, roles = ['medical']): ReviewerLoad => ({
  userId,
  roles,
  held,
  idleSince: at(idleMinute),
});
const waiting = (...ids: string[]) => ids.map((id) => ({ id, queue: 'exceptions' }));
const given = (result: Map<string, string[]>) => Object.fromEntries(result);

describe('the exception desk allocation rule', () => {
  it('gives conversations first in, first out, to the reviewer holding the fewest, then the one who waited longest', () => {
    // Ann waited since 9:00, Ben since 9:05; both hold nothing. Four conversations wait.
    const result = allocate(
      [reviewer('ben', 0, 5), reviewer('ann', 0, 0)],
      waiting('c1', 'c2', 'c3', 'c4'),
      CAPACITY,
      at(10).getTime(),
    );
    // Ann waited longest and gets the oldest; then Ben; then they alternate.
    expect(given(result)).toEqual({ ann: ['c1', 'c3'], ben: ['c2', 'c4'] });
  });

  it('never gives a reviewer more than the capacity, and leaves the rest waiting', () => {
    const result = allocate(
      [reviewer('ann', 1), reviewer('ben', 3)],
      waiting('c1', 'c2', 'c3', 'c4'),
      CAPACITY,
      at(10).getTime(),
    );
    expect(given(result)).toEqual({ ann: ['c1', 'c2'] });
    expect(freePlaces([reviewer('ann', 1), reviewer('ben', 3)], CAPACITY)).toBe(2);
  });

  it('rebalances when a reviewer leaves: their conversations keep their place and go to the others', () => {
    // Ann held c1 and c3 and left: both went back to the head of the queue, before c5.
    const result = allocate(
      [reviewer('ben', 2, 0), reviewer('cat', 1, 3)],
      waiting('c1', 'c3', 'c5'),
      CAPACITY,
      at(10).getTime(),
    );
    expect(given(result)).toEqual({ cat: ['c1', 'c5'], ben: ['c3'] });
  });

  it('gives restricted conversations only to reviewers with the restricted privilege, without holding up the others', () => {
    const lead = reviewer('lead', 0, 5, ['medical', 'admin']);
    const ann = reviewer('ann', 0, 0);
    const result = allocate(
      [ann, lead],
      [
        { id: 'r1', queue: 'exceptions-restricted' },
        { id: 'c1', queue: 'exceptions' },
        { id: 'c2', queue: 'exceptions' },
      ],
      CAPACITY,
      at(10).getTime(),
    );
    expect(given(result)).toEqual({ lead: ['r1', 'c2'], ann: ['c1'] });
    expect(mayTake(ann.roles, { id: 'r1', queue: 'exceptions-restricted' })).toBe(false);
    expect(mayTake(lead.roles, { id: 'r1', queue: 'exceptions-restricted' })).toBe(true);
  });

  it('passes over a restricted conversation nobody may take', () => {
    const result = allocate(
      [reviewer('ann')],
      [
        { id: 'r1', queue: 'exceptions-restricted' },
        { id: 'c1', queue: 'exceptions' },
      ],
      CAPACITY,
      at(10).getTime(),
    );
    expect(given(result)).toEqual({ ann: ['c1'] });
  });

  it('leaves out sessions of staff who may not work at the desk', () => {
    const result = allocate(
      [reviewer('ann', 0, 0, ['annotator'])],
      waiting('c1'),
      CAPACITY,
      at(10).getTime(),
    );
    expect(result.size).toBe(0);
  });
});
