import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  ANNOTATE_SLOT_OR_PASS_MESSAGE,
  ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
  ENTITIES_DO_NOT_MATCH_MESSAGE,
  SELECT_YES_NO_MESSAGE,
} from '@loopdesk/workbench/validation.ts';
import {
  PRIORITY_CHOICE_MESSAGE,
  purposeExceptionMessage,
  rewordingsMissingMessage,
} from '@loopdesk/workbench/submission.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { openSocket, type TestSocket } from '../../test/socket-client.ts';
import { createJobsRepository } from '../jobs/repository.ts';

const TEXT = 'I have had a sore throat for three days';
const turn = {
  content: TEXT,
  messageId: 'm-1',
  userId: 'p-1',
  metadata: { conversationId: 'c-1' },
};
const soreThroat = { start: 13, end: 24, extract: 'sore throat', category: 'onset' };

describe('every submission meets the workbench rules of the job it answers', () => {
  let t: TestApp;
  let ann: string;
  const open: TestSocket[] = [];

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    ann = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
  });
  beforeEach(async () => {
    for (const socket of open.splice(0)) {
      socket.ws.close();
      await socket.closed;
    }
    await sql`delete from jobs`.execute(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Ann resumes and receives a job of this type and data. */
  async function holding(type: string, payload: Record<string, unknown>, queue = 'federated') {
    const socket = await openSocket(t.baseUrl, `/ws/${queue}`, ann);
    open.push(socket);
    await socket.next('technician.session.paused');
    socket.send('technician.session.activate');
    await socket.next('technician.session.waiting');
    const job = await createJobsRepository(t.database.db).enqueue({
      queue: queue as 'federated',
      type,
      tenant: 'acme',
      payload,
    });
    await t.app.hub.jobsAvailable([queue]);
    await socket.next(type);
    return { socket, job };
  }
  const state = async (id: string) =>
    (
      await t.database.db
        .selectFrom('jobs')
        .select('state')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).state;
  const slot = (code: string, dataType = 'text') => ({ id: `slot-${code}`, type: dataType, code });

  it('an annotation that misses the target slot is refused and the technician keeps the job', async () => {
    const { socket, job } = await holding('message.annotation.job', {
      lastTurn: turn,
      slotSpecification: { code: 'chief_complaints', data_type: 'text', multiplicity: '1..*' },
      slot: { id: 'slot-chief_complaints', code: 'chief_complaints' },
      job: { purpose: 'full' },
    });
    const base = { jobId: job.id, action: 'answer', conversationId: 'c-1', messageId: 'm-1' };
    socket.send('message.annotation', {
      ...base,
      entities: [soreThroat],
      slot: { ...slot('chief_complaints'), value: null },
    });
    expect((await socket.next('error')).data.message).toBe(ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE);
    expect(await state(job.id)).toBe('assigned');

    // Offsets that do not match the message are refused too.
    socket.send('message.annotation', {
      ...base,
      entities: [{ ...soreThroat, start: 12, category: 'chief_complaints' }],
      slot: { ...slot('chief_complaints'), value: null },
    });
    expect((await socket.next('error')).data.message).toBe(ENTITIES_DO_NOT_MATCH_MESSAGE);

    // A chief complaint is reworded before the real submit.
    const entities = [{ ...soreThroat, category: 'chief_complaints' }];
    socket.send('message.annotation', {
      ...base,
      entities,
      slot: { ...slot('chief_complaints'), value: null },
    });
    expect((await socket.next('error')).data.message).toBe(
      rewordingsMissingMessage(['sore throat']),
    );
    socket.send('message.annotation', {
      ...base,
      entities,
      slot: { ...slot('chief_complaints'), value: null },
      rewordings: [
        { entityExtract: 'sore throat', category: 'chief_complaints', text: 'Since when?' },
      ],
    });
    await socket.next('technician.session.waiting');
    expect(await state(job.id)).toBe('completed');
  });

  it('the older screen: a standard slot needs an annotation or pass; a boolean slot a choice', async () => {
    const older = await holding('message.annotation.job', {
      lastTurn: turn,
      slotSpecification: { code: 'onset', data_type: 'text', multiplicity: '0..1' },
      slot: { id: 'slot-onset', code: 'onset' },
    });
    const base = { jobId: older.job.id, conversationId: 'c-1', messageId: 'm-1' };
    older.socket.send('message.annotation', {
      ...base,
      entities: [],
      slot: { ...slot('onset'), value: null },
    });
    expect((await older.socket.next('error')).data.message).toBe(ANNOTATE_SLOT_OR_PASS_MESSAGE);
    // Patient unsure (pass) submits '__skipped__'.
    older.socket.send('message.annotation', {
      ...base,
      entities: [],
      slot: { ...slot('onset'), value: '__skipped__' },
    });
    await older.socket.next('technician.session.waiting');
    expect(await state(older.job.id)).toBe('completed');
  });

  it('the generic screen: a boolean slot needs yes or no', async () => {
    const { socket, job } = await holding('message.annotation.job', {
      lastTurn: { ...turn, content: 'No fever' },
      slotSpecification: { code: 'fever', data_type: 'boolean', multiplicity: '1..1' },
      slot: { id: 'slot-fever', code: 'fever' },
      job: { purpose: 'full' },
    });
    const base = { jobId: job.id, action: 'answer', conversationId: 'c-1', messageId: 'm-1' };
    socket.send('message.annotation', {
      ...base,
      entities: [],
      slot: { ...slot('fever', 'boolean'), value: null },
    });
    expect((await socket.next('error')).data.message).toBe(SELECT_YES_NO_MESSAGE);
    socket.send('message.annotation', {
      ...base,
      entities: [{ start: 0, end: 8, extract: 'No fever', category: 'fever' }],
      slot: { ...slot('fever', 'boolean'), value: 'deny' },
    });
    await socket.next('technician.session.waiting');
    expect(await state(job.id)).toBe('completed');
  });

  it('a job with a custom exception label raises its custom event, suggest_forget, only', async () => {
    const { socket, job } = await holding('message.annotation.job', {
      lastTurn: turn,
      slotSpecification: { code: 'onset', data_type: 'text', multiplicity: '1..1' },
      slot: { id: 'slot-onset', code: 'onset' },
      job: { purpose: 'full', exceptionLabel: 'Not about health' },
    });
    const base = { jobId: job.id, conversationId: 'c-1', messageId: 'm-1', entities: [] };
    socket.send('message.annotation', {
      ...base,
      action: 'suggest_escalation',
      slot: { ...slot('onset'), value: null },
    });
    expect((await socket.next('error')).data.message).toBe(
      purposeExceptionMessage('suggest_forget', 'Not about health'),
    );
    expect(await state(job.id)).toBe('assigned');
    socket.send('message.annotation', {
      ...base,
      action: 'suggest_forget',
      slot: { ...slot('onset'), value: null },
    });
    await socket.next('technician.session.waiting');
    expect(await state(job.id)).toBe('completed');
  });

  it("a priority must be one of the job's choices", async () => {
    const { socket, job } = await holding(
      'intent.hpi.priority.job',
      {
        priority: 'Which worries you most?',
        choices: [{ id: 'c1', extract: 'inhaler' }],
        metadata: { xdhconvid: 'c-1' },
      },
      'priority',
    );
    socket.send('hpi.prioritised', {
      jobId: job.id,
      action: 'set_priority',
      conversationId: 'c-1',
      priority: 'c9',
    });
    expect((await socket.next('error')).data.message).toBe(PRIORITY_CHOICE_MESSAGE);
    socket.send('hpi.prioritised', {
      jobId: job.id,
      action: 'set_priority',
      conversationId: 'c-1',
      priority: 'c1',
    });
    await socket.next('technician.session.waiting');
    expect(await state(job.id)).toBe('completed');
  });
});
