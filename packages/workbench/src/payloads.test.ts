import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { describe, expect, it } from 'vitest';
import {
  buildAnnotationPayload,
  buildExceptionPayload,
  buildIntentSubmission,
  buildPriorityPayload,
  buildPurposeExceptionPayload,
  buildRephrasePayload,
  slotValue,
  type SlotAnswer,
} from './payloads.ts';

const message = { conversationId: 'c1', messageId: 'm1' };
const headache: AnnotationEntity = {
  start: 2,
  end: 10,
  extract: 'headache',
  category: 'sx',
  id: 'e1',
  presence: 'endorse',
  negated: false,
};

describe('message.annotation payload (spec 1 §7)', () => {
  it('carries action, ids, entities as [start, end, extract, category] and the slot', () => {
    expect(
      buildAnnotationPayload({
        action: 'answer',
        message,
        userId: 'u1',
        entities: [headache],
        slot: { _id: 's1', type: 'string', code: 'current_complaint' },
        value: null,
      }),
    ).toEqual({
      action: 'answer',
      conversationId: 'c1',
      messageId: 'm1',
      userId: 'u1',
      entities: [{ start: 2, end: 10, extract: 'headache', category: 'sx' }],
      slot: { id: 's1', type: 'string', code: 'current_complaint', value: null },
    });
  });

  it('refuses an entity whose end is not after its start', () => {
    expect(() =>
      buildAnnotationPayload({
        action: 'execute',
        message,
        entities: [{ ...headache, end: 2 }],
        slot: { id: 's1', type: 'string', code: 'x' },
        value: null,
      }),
    ).toThrow();
  });
});

describe('the slot value submitted', () => {
  it.each<[string, SlotAnswer, string | null]>([
    ['patient unsure submits __skipped__', { slotCode: 'onset', skipped: true }, '__skipped__'],
    [
      'an unsure boolean submits __skipped__',
      { slotCode: 'fever', dataType: 'boolean', booleanChoice: 'unsure' },
      '__skipped__',
    ],
    [
      'an endorsed boolean',
      { slotCode: 'fever', dataType: 'boolean', booleanChoice: 'endorse' },
      'endorse',
    ],
    ['a denied boolean', { slotCode: 'fever', dataType: 'boolean', booleanChoice: 'deny' }, 'deny'],
    ['a ticked complete box', { slotCode: 'complete', completeChecked: true }, 'true'],
    ['an unticked complete box', { slotCode: 'complete' }, null],
    ['a slot answered by its entities', { slotCode: 'onset' }, null],
  ])('%s', (_name, answer, value) => {
    expect(slotValue(answer)).toBe(value);
  });
});

describe('exception payloads', () => {
  it("the annotation exception is {action:'exception', conversationId, messageId, slot {id, code}}", () => {
    expect(buildExceptionPayload({ message, slot: { id: 's1', code: 'onset' } })).toEqual({
      action: 'exception',
      conversationId: 'c1',
      messageId: 'm1',
      slot: { id: 's1', code: 'onset' },
    });
  });

  it.each([
    [false, 'suggest_escalation'],
    [true, 'suggest_forget'],
  ])(
    'a purpose panel exception (custom event %s) sends %s with no entities',
    (customEvent, action) => {
      expect(
        buildPurposeExceptionPayload({
          message,
          slot: { id: 's1', type: 'string', code: 'onset' },
          customEvent,
        }),
      ).toEqual({
        action,
        conversationId: 'c1',
        messageId: 'm1',
        entities: [],
        slot: { id: 's1', type: 'string', code: 'onset', value: null },
      });
    },
  );
});

describe('rephrase, priority and intent payloads (spec 1 §3, §7)', () => {
  it("rephrase sends the chosen question with replyType 'REPHRASE'", () => {
    expect(
      buildRephrasePayload({
        conversationId: 'c1',
        recipientId: 'p1',
        question: 'When did it start?',
        replyTo: 'm1',
      }),
    ).toEqual({
      conversationId: 'c1',
      recipientId: 'p1',
      message: 'When did it start?',
      replyType: 'REPHRASE',
      replyTo: 'm1',
    });
  });

  it('rephrase without a question breaks the contract', () => {
    expect(() =>
      buildRephrasePayload({
        conversationId: 'c1',
        recipientId: 'p1',
        question: '',
        replyTo: 'm1',
      }),
    ).toThrow();
  });

  it("priority is {action:'set_priority', conversationId, priority}", () => {
    expect(buildPriorityPayload({ conversationId: 'c1', priority: 'choice-2' })).toEqual({
      action: 'set_priority',
      conversationId: 'c1',
      priority: 'choice-2',
    });
  });

  it('intent submission is {message {conversationId, messageId, userId}, entities}', () => {
    expect(
      buildIntentSubmission({
        message,
        userId: 'u1',
        entities: [{ ...headache, category: 'refill+book' }],
      }),
    ).toEqual({
      message: { conversationId: 'c1', messageId: 'm1', userId: 'u1' },
      entities: [{ start: 2, end: 10, extract: 'headache', category: 'refill+book' }],
    });
  });
});
