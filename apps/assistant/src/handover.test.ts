import { describe, expect, it } from 'vitest';
import type { AppendMessageBody } from '@loopdesk/contracts/conversations.ts';
import type { CreateJobBody, JobView, OutboxEvent } from '@loopdesk/contracts/integration.ts';
import type { IntegrationClient } from './client.ts';
import { Outcomes, runConversation } from './conversation.ts';
import { closingMessage, ConversationInbox, FALLBACK_REPLY, RESUME_MESSAGE } from './handover.ts';
import { fakeTranscript } from './handover.test-kit.ts';
import { PATIENTS } from './patients.ts';

/** A fake Loopdesk whose federated jobs complete at once; exception tasks stay open. */
function fakeLoopdesk(outcomes: Outcomes) {
  const created: CreateJobBody[] = [];
  const transcript: AppendMessageBody[] = [];
  const handedOver = new Set<string>();
  const transcriptCalls = fakeTranscript(transcript, handedOver);
  const client: IntegrationClient = {
    createJob(body) {
      created.push(body);
      const id = `00000000-0000-4000-8000-${String(created.length).padStart(12, '0')}`;
      const job: JobView = {
        id,
        queue: body.queue,
        type: body.type,
        tenant: body.tenant,
        state: body.type === 'exception.job' ? 'assigned' : 'completed',
        attempts: 1,
        priority: 0,
        data: body.data,
        createdAt: new Date().toISOString(),
        completedAt: null,
        result: null,
      };
      if (job.state === 'completed') {
        setTimeout(() => outcomes.settle(job), 0);
      }
      return Promise.resolve(job);
    },
    events: () => Promise.resolve({ events: [], nextCursor: '0_0' }),
    requests: () => Promise.resolve({ requests: [] }),
    answer: () => Promise.resolve({}),
    ...transcriptCalls,
    async handover(id, body) {
      const view = await transcriptCalls.handover(id, body);
      return view;
    },
  };
  return { client, created, transcript, handedOver };
}

let cursor = 0;
/** An outbox event for a conversation, as the feed delivers it. */
function event(
  type: OutboxEvent['type'],
  conversationId: string,
  data: Record<string, unknown> = {},
): OutboxEvent {
  cursor += 1;
  return {
    cursor: `1_${cursor}`,
    id: `00000000-0000-4000-9000-${String(cursor).padStart(12, '0')}`,
    type,
    jobId: null,
    conversationId,
    data,
    createdAt: new Date().toISOString(),
  };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(check()).toBe(true);
};

describe('the demo assistant at the exception desk', () => {
  it('hands over when the patient asks for a human, stays silent, lets the patient answer each reply, and resumes after the handback', async () => {
    const outcomes = new Outcomes();
    const inbox = new ConversationInbox();
    const script = PATIENTS.find((p) => p.id === 'ask-human');
    if (!script?.handover) {
      throw new Error('no ask-human script');
    }
    const { client, created, transcript, handedOver } = fakeLoopdesk(outcomes);
    const lines: string[] = [];
    const run = runConversation(client, outcomes, script, (line) => lines.push(line), {
      inbox,
      replyDelayMs: 0,
    });

    // First, the assistant asks, the patient wants a person: the assistant says so and hands over.
    await until(() => handedOver.size === 1);
    const conversationId = [...handedOver][0] ?? '';
    expect(transcript.map((m) => [m.direction, m.content])).toEqual([
      ['OUT', 'What brings you in today?'],
      ['IN', "I'd rather talk to a real person, please."],
      ['OUT', script.handover.botSays],
    ]);
    // The reviewer gets a task for the patient's message, in the conversation's queue.
    await until(() => created.length === 1);
    expect(created[0]).toMatchObject({
      queue: 'exceptions',
      type: 'exception.job',
      data: {
        conversationId,
        lastTurn: { content: "I'd rather talk to a real person, please." },
        slotSpecification: { code: 'chief_complaints' },
      },
    });

    // Second, the clinician replies twice, then once more: the patient answers each in turn.
    for (const [index, expected] of [...script.handover.replies, FALLBACK_REPLY].entries()) {
      inbox.push(
        event('conversation.reply', conversationId, { message: { content: `Question ${index}` } }),
      );
      await until(() => transcript.at(-1)?.content === expected);
      expect(transcript.at(-1)?.direction).toBe('IN');
    }
    // Each patient message is a task; after the last scripted answer the reviewer is also asked
    // to confirm the exception is complete, on the slot only ticking a box completes.
    await until(() => created.length === 5);
    expect((created[1]?.data.quinnLastTurn as { content: string }).content).toBe('Question 0');
    const slots = created.map((job) => (job.data.slotSpecification as { code: string }).code);
    expect(slots).toEqual([
      'chief_complaints',
      'chief_complaints',
      'chief_complaints',
      'complete',
      'chief_complaints',
    ]);
    expect(created[3]).toMatchObject({
      queue: 'exceptions',
      type: 'exception.job',
      data: {
        conversationId,
        lastTurn: { content: script.handover.replies.at(-1) },
        slotSpecification: { code: 'complete', data_type: 'boolean' },
        slot: { code: 'complete' },
      },
    });
    // Nothing the assistant said went out meanwhile: no federated job either.
    expect(created.every((job) => job.type === 'exception.job')).toBe(true);

    // Third, the clinician hands back: the assistant speaks again and goes on with the intake.
    handedOver.delete(conversationId);
    inbox.push(event('conversation.handedback', conversationId));
    const finished = await run;
    expect(finished.map((job) => job.state)).toEqual(['completed', 'completed']);
    const after = transcript.slice(transcript.findIndex((m) => m.content === RESUME_MESSAGE));
    expect(after.map((m) => m.direction)).toEqual(['OUT', 'OUT', 'IN', 'OUT', 'IN']);
    expect(after[1]?.content).toMatch(/^When did the .* start\?$/);
    expect(lines.some((line) => line.includes('handed back; the assistant resumes'))).toBe(true);
  });

  it('closes the conversation with the appointment when the clinician ends it, and asks nothing more', async () => {
    const outcomes = new Outcomes();
    const inbox = new ConversationInbox();
    const script = PATIENTS.find((p) => p.id === 'ask-human');
    if (!script) {
      throw new Error('no ask-human script');
    }
    const { client, created, transcript, handedOver } = fakeLoopdesk(outcomes);
    const run = runConversation(client, outcomes, script, () => undefined, { inbox });
    await until(() => handedOver.size === 1);
    const conversationId = [...handedOver][0] ?? '';
    handedOver.delete(conversationId);
    inbox.push(
      event('conversation.ended', conversationId, {
        endType: 'END',
        appointment: {
          fromDateTime: '2026-07-01T09:30',
          timezone: 'America/Los_Angeles',
          staff: { firstName: 'Iris', lastName: 'Hale' },
        },
      }),
    );
    expect(await run).toEqual([]);
    expect(transcript.at(-1)).toMatchObject({
      direction: 'OUT',
      content:
        'Your appointment with Dr Iris Hale is booked for 2026-07-01 at 09:30 (America/Los_Angeles). Take care.',
    });
    expect(created.filter((job) => job.type !== 'exception.job')).toEqual([]);
  });

  it('words the closing message for each kind of end', () => {
    expect(closingMessage({ endType: 'TERMINATE' })).toMatch(/closed this conversation/);
    expect(closingMessage({ endType: 'END', appointment: null })).toBe(
      'Thank you. This conversation is now closed.',
    );
  });

  it('some patients ask for a human, one goes off-script, one needs the restricted queue', () => {
    const handovers = PATIENTS.flatMap((p) => (p.handover ? [p.handover] : []));
    expect(handovers.map((h) => h.reason)).toEqual(
      expect.arrayContaining([
        'The patient asked for a human',
        'The answer did not fit the question (off-script)',
      ]),
    );
    expect(handovers.some((h) => h.queue === 'exceptions-restricted')).toBe(true);
    for (const handover of handovers) {
      expect(handover.replies.length).toBeGreaterThan(0);
    }
  });

  it('queues conversation events per conversation, in order, for whoever waits', async () => {
    const inbox = new ConversationInbox();
    inbox.push(event('conversation.reply', 'a', { n: 1 }));
    inbox.push(event('conversation.reply', 'b', { n: 2 }));
    inbox.push(event('conversation.handedback', 'a'));
    expect((await inbox.next('a')).data).toEqual({ n: 1 });
    expect((await inbox.next('a')).type).toBe('conversation.handedback');
    const later = inbox.next('a');
    inbox.push(event('conversation.ended', 'a'));
    expect((await later).type).toBe('conversation.ended');
    expect((await inbox.next('b')).data).toEqual({ n: 2 });
  });
});
