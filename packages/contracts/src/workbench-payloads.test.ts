import { describe, expect, it } from 'vitest';
import {
  AnnotationEntity,
  IntentContextMenu,
  MessageAnnotationPayload,
} from './workbench-payloads.ts';

describe('workbench payload schemas', () => {
  it.each([
    ['a minimal entity', { start: 0, end: 4, extract: 'pain', category: 'sx' }, true],
    [
      'an entity with every optional field',
      {
        start: 0,
        end: 4,
        extract: 'pain',
        category: 'sx',
        id: 'e1',
        normalised: true,
        concepts: [{ id: 'k1', code: { code: 'C0030193', system: 'UMLS' }, text: 'Pain' }],
        negated: false,
        presence: 'unsure',
      },
      true,
    ],
    ['an entity ending where it starts', { start: 4, end: 4, extract: 'x', category: 'sx' }, false],
    ['a negative offset', { start: -1, end: 4, extract: 'pain', category: 'sx' }, false],
    [
      'an unknown presence',
      { start: 0, end: 4, extract: 'pain', category: 'sx', presence: 'maybe' },
      false,
    ],
  ])('%s is valid: %s', (_name, value, valid) => {
    expect(AnnotationEntity.safeParse(value).success).toBe(valid);
  });

  it("message.annotation defaults its action to 'execute'", () => {
    const parsed = MessageAnnotationPayload.parse({
      conversationId: 'c1',
      messageId: 'm1',
      entities: [],
      slot: { id: 's1', type: 'string', code: 'onset', value: null },
    });
    expect(parsed.action).toBe('execute');
  });

  it('a context menu nests categories and lists derived ones', () => {
    expect(
      IntentContextMenu.safeParse({ menu: { a: ['b'], c: { d: null } }, derived: ['e'] }).success,
    ).toBe(true);
    expect(IntentContextMenu.safeParse({ menu: { a: 3 }, derived: [] }).success).toBe(false);
  });
});
