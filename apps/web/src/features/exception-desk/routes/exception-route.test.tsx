import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConversationMessage } from '@loopdesk/contracts/conversations.ts';
import type { ExceptionConversation } from '@loopdesk/contracts/exceptions.ts';
import { COMPLETE_BY_CHECKBOX_MESSAGE } from '@loopdesk/workbench/validation.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/toast-provider.tsx';
import { setSession } from '../../../lib/auth/session-store.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { fakeWebSockets, type FakeSocket } from '../../../test/fake-web-socket.ts';
import {
  errorAnswer,
  installFakeServer,
  json,
  makeUser,
  signedInRoutes,
  type FakeHandler,
  type FakeRequest,
} from '../../../test/fake-server.ts';
import { ExceptionRoute } from './exception-route.tsx';

const user = makeUser(['medical'], { id: 'user-meera', email: 'meera@example.com' });

const noah: ExceptionConversation = {
  userId: 'patient-noah',
  conversationId: 'conv-noah',
  botConversationId: 'bot-noah',
  tenant: 'acme-clinic',
  read: false,
  name: { given: 'Noah', family: 'Williams' },
  queue: 'exceptions',
  reason: 'The patient asked for a human',
  allocatedAt: '2026-07-01T09:00:00.000Z',
};
const ava: ExceptionConversation = {
  ...noah,
  userId: 'patient-ava',
  conversationId: 'conv-ava',
  name: { given: 'Ava', family: 'Thompson' },
};

let clock = 0;
function message(
  id: string,
  direction: 'IN' | 'OUT',
  content: string,
  entities: ConversationMessage['metadata']['entities'] = [],
): ConversationMessage {
  clock += 1;
  return {
    id,
    conversationId: 'conv-noah',
    direction,
    content,
    createdOn: new Date(Date.UTC(2026, 6, 1, 9, 0, clock)).toISOString(),
    author:
      direction === 'IN'
        ? { kind: 'patient', id: 'patient-noah', name: 'Noah Williams' }
        : { kind: 'assistant', id: 'assistant', name: 'Assistant' },
    metadata: { entities },
    translation: null,
    replyTo: null,
    replyType: null,
  };
}

/** Appointment times in the dialog must lie ahead: next year's 1 July. */
const NEXT_YEAR = new Date().getUTCFullYear() + 1;
const FUTURE = `${NEXT_YEAR}-07-01T09:30`;

/** The server's transcript of Noah's conversation; tests append to it. */
let transcript: ConversationMessage[] = [];

/** GET …/messages: newest-first pages of 10, or the tail after `last`. */
const messagesRoute: FakeHandler = ({ query, headers }: FakeRequest) => {
  expect(headers.get('X-Tenant-ID')).toBe('acme-clinic');
  const last = query.get('last');
  const size = Number(query.get('s'));
  const items = last
    ? transcript.slice(transcript.findIndex((m) => m.id === last) + 1)
    : [...transcript]
        .reverse()
        .slice(Number(query.get('p')) * size, (Number(query.get('p')) + 1) * size);
  return json(200, {
    items,
    page: {
      number: Number(query.get('p') ?? 0),
      size,
      total: transcript.length,
      totalPages: Math.ceil(transcript.length / size),
    },
  });
};

function signIn() {
  setSession({
    status: 'signed-in',
    accessToken: 'token-meera',
    expiresAt: Date.now() + 15 * 60_000,
    refreshedAt: Date.now(),
    user,
  });
}

function renderDesk(routes: Record<string, FakeHandler> = {}) {
  const fetchMock = installFakeServer({
    ...signedInRoutes(user),
    'GET /internal/sessions/_count': () => json(200, { federated: 2, exception: 1 }),
    'GET /internal/conversations/_queued': () =>
      json(200, { items: [], current: null, capacity: 3 }),
    'GET /internal/conversations/conv-noah/messages': messagesRoute,
    'GET /internal/consumers/patient-noah': () =>
      json(200, {
        id: 'patient-noah',
        name: { given: 'Noah', family: 'Williams' },
        externalReferences: [{ system: 'acme-emr', reference: 'patient-noah' }],
      }),
    'GET /internal/configurations/acme-clinic': () =>
      json(200, {
        id: 'acme-clinic',
        tenant: 'acme-clinic',
        displayName: 'Acme Clinic',
        emr: { system: 'acme-emr', recordUrl: 'https://emr.example/patients/{reference}' },
        timezone: 'America/Los_Angeles',
        updatedAt: '2026-07-01T00:00:00.000Z',
      }),
    'GET /internal/physicians': () =>
      json(200, { items: [{ id: 'dr-hale', firstName: 'Iris', lastName: 'Hale' }] }),
    ...routes,
  });
  signIn();
  const fake = fakeWebSockets();
  const events = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <ExceptionRoute WebSocket={fake.WebSocket} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { fake, events, fetchMock };
}

/** Plays the server on the socket. */
const server = (fn: () => void) => act(fn);

const sent = (socket: FakeSocket, type: string) =>
  socket.events().filter((event) => event.type === type);

/** Resumed, with Noah's conversation allocated and on screen. */
async function holdingNoah(routes: Record<string, FakeHandler> = {}) {
  const view = renderDesk(routes);
  await view.events.click(screen.getByRole('button', { name: 'Resume' }));
  await waitFor(() => expect(view.fake.sockets).toHaveLength(1));
  const socket = view.fake.last();
  server(() => socket.accept());
  await waitFor(() => expect(socket.types()).toContain('technician.session.activate'));
  server(() =>
    socket.receive('technician.session.waiting', { state: 'waiting', source: 'exceptions' }),
  );
  server(() =>
    socket.receive('technician.session.conversation.added', { conversation: noah }, 'e1'),
  );
  server(() =>
    socket.receive(
      'technician.session.conversation.switched',
      { conversationId: 'conv-noah' },
      'e2',
    ),
  );
  return { ...view, socket };
}

describe('Exception Jobs screen', () => {
  beforeEach(() => {
    clock = 0;
    transcript = [
      message('m1', 'OUT', 'What brings you in today?'),
      message('m2', 'IN', "I'd rather talk to a real person, please."),
      message('m2-DER', 'IN', 'chest tightness → chief_complaints', [
        { extract: 'chest tightness', category: 'chief_complaints' },
      ]),
    ];
    window.getSelection()?.removeAllRanges();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts paused and unconnected; Resume connects, asks for work and waits for a conversation', async () => {
    const { fake, events } = renderDesk();
    expect(fake.sockets).toHaveLength(0);
    expect(screen.getByText('Paused click resume to continue')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Resume' }));
    const socket = fake.last();
    expect(socket.url).toMatch(/\/ws\/exceptions$/);
    server(() => socket.accept());
    await waitFor(() =>
      expect(socket.types()).toEqual(['technician.session.pause', 'technician.session.activate']),
    );
    server(() =>
      socket.receive('technician.session.waiting', { state: 'waiting', source: 'exceptions' }),
    );
    expect(
      await screen.findByText('Waiting for a conversation to be allocated.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Manual input (USE WITH CAUTION)')).toBeDisabled();
    expect(await screen.findByText('Exception sessions: 1')).toBeInTheDocument();
  });

  it('shows an allocated conversation: the patient linked to the EMR, the transcript, and waits for the next message', async () => {
    await holdingNoah();
    const patient = screen.getByRole('region', { name: 'Patient' });
    const link = await within(patient).findByRole('link', { name: 'Noah Williams' });
    expect(link).toHaveAttribute('href', 'https://emr.example/patients/patient-noah');
    expect(
      within(patient).getByRole('button', { name: 'End and schedule appointment' }),
    ).toBeInTheDocument();
    expect(
      within(patient).getByRole('button', { name: 'Terminate encounter' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText("I'd rather talk to a real person, please."),
    ).toBeInTheDocument();
    expect(screen.getByText('Waiting for next message...')).toBeInTheDocument();
    // The current conversation is outlined; its badge is read (secondary).
    const avatar = screen.getByRole('button', { name: 'Noah Williams' });
    expect(avatar).toHaveAttribute('aria-current', 'true');
  });

  it('tail-polls the transcript every 2 s, and at once when a message event arrives', async () => {
    const { socket } = await holdingNoah();
    await screen.findByText('What brings you in today?');
    transcript.push(message('m3', 'IN', 'It is a tight feeling in my chest.'));
    server(() =>
      socket.receive('technician.session.conversation.message.added', {
        conversationId: 'conv-noah',
        message: transcript.at(-1),
      }),
    );
    expect(await screen.findByText('It is a tight feeling in my chest.')).toBeInTheDocument();
    transcript.push(message('m4', 'IN', 'It comes and goes.'));
    // No event this time: the 2-second poll finds it.
    expect(
      await screen.findByText('It comes and goes.', {}, { timeout: 3500 }),
    ).toBeInTheDocument();
    expect(screen.getAllByText('It comes and goes.')).toHaveLength(1);
  });

  it('hides derived (-DER) messages until an entity is focused, by a chip or by selecting text', async () => {
    transcript.push(
      message('m3', 'IN', 'My chest tightness is bad', [
        { extract: 'chest tightness', category: 'sx' },
      ]),
    );
    const { events } = await holdingNoah();
    await screen.findByText('My chest tightness is bad');
    const derived = () => document.querySelector('[data-message-id="m2-DER"]');
    expect(derived()).toBeNull();
    await events.click(screen.getByRole('button', { name: /chest tightness · Symptom/ }));
    expect(derived()).not.toBeNull();
    await events.click(screen.getByTestId('CancelIcon'));
    expect(derived()).toBeNull();

    // Selecting text in the transcript opens the annotation menu; a category focuses the entity.
    const target = screen
      .getAllByRole('region', { name: 'Message from Noah Williams' })
      .find((r) => r.textContent?.includes('My chest tightness is bad'));
    if (!target) {
      throw new Error('no message with chest tightness');
    }
    const walker = document.createTreeWalker(target, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf('chest tightness') ?? -1;
      if (at >= 0) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 'chest tightness'.length);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
        break;
      }
    }
    fireEvent.mouseUp(target);
    const menu = await screen.findByRole('menu', { name: 'Focus an entity' });
    expect(within(menu).getByText('Chief complaint')).toBeInTheDocument();
    fireEvent.keyDown(document, { key: '1' });
    expect(await screen.findByText('chest tightness (Chief complaint)')).toBeInTheDocument();
    expect(derived()).not.toBeNull();
  });

  it('sends a manual reply by Enter or the button, only when it is not empty, and clears it once stored', async () => {
    const { socket, events } = await holdingNoah();
    const input = screen.getByLabelText('Manual input (USE WITH CAUTION)');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await events.type(input, '   {Enter}');
    expect(sent(socket, 'message.manual.response')).toHaveLength(0);
    await events.clear(input);
    await events.type(input, 'Hi Noah, I am a nurse.{Enter}');
    expect(sent(socket, 'message.manual.response').map((e) => e.data)).toEqual([
      {
        conversationId: 'conv-noah',
        recipientId: 'patient-noah',
        message: 'Hi Noah, I am a nurse.',
        replyType: 'MANUAL',
      },
    ]);
    server(() =>
      socket.receive('message.manual.responded', {
        conversationId: 'conv-noah',
        message: { ...message('r1', 'OUT', 'Hi Noah, I am a nurse.'), replyType: 'MANUAL' },
      }),
    );
    await waitFor(() =>
      expect(screen.getByLabelText('Manual input (USE WITH CAUTION)')).toHaveValue(''),
    );
    await events.type(screen.getByLabelText('Manual input (USE WITH CAUTION)'), 'And the pain?');
    await events.click(screen.getByRole('button', { name: 'Send' }));
    expect(sent(socket, 'message.manual.response')).toHaveLength(2);
    // A refusal from the server shows as a toast.
    server(() => socket.receive('error', { message: 'You do not hold this conversation.' }));
    expect(await screen.findByText('You do not hold this conversation.')).toBeInTheDocument();
  });

  it('keeps the avatar queue: another conversation’s message makes it unread; a click switches to it', async () => {
    const { socket, events } = await holdingNoah();
    server(() =>
      socket.receive(
        'technician.session.conversation.added',
        { conversation: { ...ava, read: true } },
        'e3',
      ),
    );
    const avaButton = await screen.findByRole('button', { name: 'Ava Thompson' });
    expect(within(avaButton).getByTestId('badge-read')).toBeInTheDocument();
    server(() =>
      socket.receive('technician.session.conversation.message.added', {
        conversationId: 'conv-ava',
        message: { ...message('a1', 'IN', 'Hello?'), conversationId: 'conv-ava' },
      }),
    );
    const unread = await screen.findByRole('button', { name: 'Ava Thompson (unread)' });
    expect(within(unread).getByTestId('badge-unread')).toBeInTheDocument();
    await events.click(unread);
    expect(sent(socket, 'technician.session.conversation.switch').map((e) => e.data)).toEqual([
      { conversationId: 'conv-ava' },
    ]);
    server(() =>
      socket.receive(
        'technician.session.conversation.switched',
        { conversationId: 'conv-ava' },
        'e4',
      ),
    );
    expect(await screen.findByRole('button', { name: 'Ava Thompson' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    // Ended: removed from the queue.
    server(() =>
      socket.receive(
        'technician.session.conversation.ended',
        { conversationId: 'conv-ava', type: 'END', reason: 'ended' },
        'e5',
      ),
    );
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /Ava Thompson/ })).not.toBeInTheDocument(),
    );
  });

  it('shows the current task in the federated panels', async () => {
    const { socket } = await holdingNoah();
    server(() =>
      socket.receive(
        'exception.job',
        {
          jobId: '0f8fad5b-d9cb-469f-a165-70867728950e',
          tenant: 'acme-clinic',
          conversationId: 'conv-noah',
          lastTurn: {
            content: "I'd rather talk to a real person, please.",
            messageId: 'm2',
            metadata: { conversationId: 'conv-noah', entities: [] },
          },
          quinnLastTurn: { content: 'What brings you in today?' },
          slotSpecification: { code: 'chief_complaints', short_description: 'chief complaint' },
          slot: { id: 'slot-cc', code: 'chief_complaints' },
          job: { purpose: 'full' },
        },
        'job-1',
      ),
    );
    expect(await screen.findByText('Annotate chief complaint')).toBeInTheDocument();
    expect(screen.queryByText('Waiting for next message...')).not.toBeInTheDocument();
  });

  it('a task on the complete slot is completed only by ticking its box', async () => {
    const { socket, events } = await holdingNoah();
    server(() =>
      socket.receive(
        'exception.job',
        {
          jobId: '0f8fad5b-d9cb-469f-a165-70867728950f',
          tenant: 'acme-clinic',
          conversationId: 'conv-noah',
          lastTurn: {
            content: 'Thanks, that is all.',
            messageId: 'm9',
            metadata: { conversationId: 'conv-noah', entities: [] },
          },
          slotSpecification: {
            code: 'complete',
            short_description: 'Exception complete',
            data_type: 'boolean',
          },
          slot: { id: 'slot-complete', code: 'complete' },
          job: { purpose: 'full' },
        },
        'job-2',
      ),
    );
    await events.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(COMPLETE_BY_CHECKBOX_MESSAGE)).toBeInTheDocument();
    expect(sent(socket, 'message.annotation')).toHaveLength(0);
    await events.click(screen.getByRole('checkbox', { name: 'Complete' }));
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(sent(socket, 'message.annotation').map((e) => e.data)).toEqual([
      expect.objectContaining({
        jobId: '0f8fad5b-d9cb-469f-a165-70867728950f',
        conversationId: 'conv-noah',
        messageId: 'm9',
        slot: { id: 'slot-complete', type: 'boolean', code: 'complete', value: 'true' },
      }),
    ]);
  });

  it("a second submit while the first is in flight says 'Busy processing.' until the server answers", async () => {
    const { socket, events } = await holdingNoah();
    const task = (jobId: string, id: string) =>
      server(() =>
        socket.receive(
          'exception.job',
          {
            jobId,
            tenant: 'acme-clinic',
            conversationId: 'conv-noah',
            lastTurn: {
              content: 'Thanks, that is all.',
              messageId: 'm9',
              metadata: { conversationId: 'conv-noah', entities: [] },
            },
            slotSpecification: { code: 'onset', short_description: 'onset' },
            slot: { id: 'slot-onset', code: 'onset' },
            // Verify-answered: Submit says the question was answered, with no annotation to make.
            job: { purpose: 'verify-answered' },
          },
          id,
        ),
      );
    task('0f8fad5b-d9cb-469f-a165-708677289510', 'job-3');
    await events.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(screen.queryByText('Busy processing.')).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Busy processing.')).toBeInTheDocument();
    expect(screen.getByText('Already processing previous submission.')).toBeInTheDocument();
    expect(sent(socket, 'message.annotation')).toHaveLength(1);
    // The next task clears the busy flag and the notice.
    task('0f8fad5b-d9cb-469f-a165-708677289511', 'job-4');
    await waitFor(() => expect(screen.queryByText('Busy processing.')).not.toBeInTheDocument());
  });

  it('Terminate encounter asks first, then ends with TERMINATE; Hand back hands it back', async () => {
    const { socket, events } = await holdingNoah();
    await events.click(screen.getByRole('button', { name: 'Terminate encounter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Terminate encounter' });
    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent(socket, 'technician.session.conversation.end')).toHaveLength(0);
    await events.click(screen.getByRole('button', { name: 'Terminate encounter' }));
    await events.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Terminate' }),
    );
    expect(sent(socket, 'technician.session.conversation.end').map((e) => e.data)).toEqual([
      { conversationId: 'conv-noah', type: 'TERMINATE' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Hand back asks first too (issue 20); Cancel sends nothing.
    await events.click(screen.getByRole('button', { name: 'Hand back to assistant' }));
    const handback = await screen.findByRole('dialog', { name: 'Hand back to assistant' });
    await events.click(within(handback).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent(socket, 'technician.session.conversation.handback')).toHaveLength(0);
    await events.click(screen.getByRole('button', { name: 'Hand back to assistant' }));
    await events.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Hand back' }),
    );
    expect(sent(socket, 'technician.session.conversation.handback').map((e) => e.data)).toEqual([
      { conversationId: 'conv-noah' },
    ]);
    server(() =>
      socket.receive(
        'technician.session.conversation.handedback',
        { conversationId: 'conv-noah' },
        'e9',
      ),
    );
    expect(
      await screen.findByText('Waiting for a conversation to be allocated.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Patient' })).not.toBeInTheDocument();
    // The toast says who is back with the assistant.
    expect(
      await screen.findByText('Noah Williams is back with the assistant.'),
    ).toBeInTheDocument();
  });

  it('End and schedule appointment: refuses missing fields, schedules, then ends with END', async () => {
    const scheduled: unknown[] = [];
    const { socket, events } = await holdingNoah({
      'POST /internal/appointments/_schedule': ({ body }) => {
        scheduled.push(body);
        return json(201, {
          ...(body as Record<string, unknown>),
          id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
          startsAt: '2026-07-01T16:30:00.000Z',
          consumerId: 'patient-noah',
          consumerEmail: null,
          status: 'SCHEDULED',
          createdOn: '2026-07-01T09:00:00.000Z',
          createdBy: 'meera@example.com',
        });
      },
    });
    await events.click(screen.getByRole('button', { name: 'End and schedule appointment' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Schedule an appointment for Noah Williams',
    });
    // Defaults: GENERAL, 15 minutes, America/Los_Angeles; the conversation id filled in.
    expect(within(dialog).getByRole('combobox', { name: 'Appointment type' })).toHaveTextContent(
      'General',
    );
    expect(within(dialog).getByLabelText(/^Duration \(minutes\)/)).toHaveValue(15);
    expect(within(dialog).getByRole('combobox', { name: 'Timezone' })).toHaveTextContent(
      'America/Los_Angeles',
    );
    expect(within(dialog).getByLabelText('Conversation id')).toHaveValue('conv-noah');

    await events.click(within(dialog).getByRole('button', { name: 'Schedule and end' }));
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    expect(within(dialog).getByText('Choose a physician.')).toBeInTheDocument();
    expect(scheduled).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/^Date and time/), {
      target: { value: FUTURE },
    });
    await events.click(within(dialog).getByRole('combobox', { name: /^Physician/ }));
    await events.click(await screen.findByRole('option', { name: 'Iris Hale' }));
    // (Typed at once: key by key, userEvent takes seconds on a busy machine.)
    fireEvent.change(within(dialog).getByLabelText(/Appointment note/), {
      target: { value: 'Chest tightness since this morning.' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Consumer note/), {
      target: { value: 'Dr Hale will call you.' },
    });
    await events.click(within(dialog).getByRole('button', { name: 'Schedule and end' }));

    expect(
      await screen.findByText('Success the appointment has been scheduled.'),
    ).toBeInTheDocument();
    expect(scheduled).toEqual([
      {
        type: 'GENERAL',
        fromDateTime: FUTURE,
        duration: 15,
        timezone: 'America/Los_Angeles',
        staffId: 'dr-hale',
        staffFirstName: 'Iris',
        staffLastName: 'Hale',
        appointmentNote: 'Chest tightness since this morning.',
        consumerNote: 'Dr Hale will call you.',
        conversationId: 'conv-noah',
      },
    ]);
    await waitFor(() =>
      expect(sent(socket, 'technician.session.conversation.end').map((e) => e.data)).toEqual([
        {
          conversationId: 'conv-noah',
          type: 'END',
          appointmentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        },
      ]),
    );
  }, 20_000);

  it('the appointment form says what to fix: a time gone by, too long, a bad email; nothing is sent', async () => {
    const scheduled: unknown[] = [];
    const { socket, events } = await holdingNoah({
      'POST /internal/appointments/_schedule': ({ body }) => {
        scheduled.push(body);
        return errorAnswer(500, 'Internal Server Error', 'unexpected');
      },
    });
    await events.click(screen.getByRole('button', { name: 'End and schedule appointment' }));
    const dialog = await screen.findByRole('dialog');
    // Every field that must be filled says so.
    for (const name of [/^Date and time/, /^Duration/, /^Appointment note/, /^Consumer note/]) {
      expect(within(dialog).getByLabelText(name)).toBeRequired();
    }
    fireEvent.change(within(dialog).getByLabelText(/^Date and time/), {
      target: { value: `${NEXT_YEAR - 2}-07-01T09:30` },
    });
    fireEvent.change(within(dialog).getByLabelText(/^Duration/), { target: { value: '600' } });
    await events.click(within(dialog).getByRole('combobox', { name: /^Physician/ }));
    await events.click(await screen.findByRole('option', { name: 'Iris Hale' }));
    fireEvent.change(within(dialog).getByLabelText(/^Appointment note/), {
      target: { value: 'Note' },
    });
    fireEvent.change(within(dialog).getByLabelText(/^Consumer note/), {
      target: { value: 'Note' },
    });
    fireEvent.change(within(dialog).getByLabelText('Consumer email'), {
      target: { value: 'noah at example' },
    });
    await events.click(within(dialog).getByRole('button', { name: 'Schedule and end' }));
    expect(
      within(dialog).getByText('This time has passed in America/Los_Angeles: choose a later one.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('At most 480 minutes.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Enter an email address, like name@example.com.'),
    ).toBeInTheDocument();
    expect(scheduled).toHaveLength(0);
    expect(sent(socket, 'technician.session.conversation.end')).toHaveLength(0);
  }, 20_000);

  it('the appointment form says why no physician can be chosen', async () => {
    const { events } = await holdingNoah({
      'GET /internal/physicians': () => json(200, { items: [] }),
    });
    await events.click(screen.getByRole('button', { name: 'End and schedule appointment' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText(
        'No physicians are registered yet: the assistant registers them.',
      ),
    ).toBeInTheDocument();
  });

  it('only the patient writing makes another conversation unread, not a derived note or a reply', async () => {
    const { socket } = await holdingNoah();
    server(() =>
      socket.receive(
        'technician.session.conversation.added',
        { conversation: { ...ava, read: true } },
        'e3',
      ),
    );
    await screen.findByRole('button', { name: 'Ava Thompson' });
    const inAva = (m: ConversationMessage) => ({ ...m, conversationId: 'conv-ava' });
    server(() => {
      socket.receive('technician.session.conversation.message.added', {
        conversationId: 'conv-ava',
        message: inAva(message('a1-DER', 'IN', 'rash → sx')),
      });
      socket.receive('technician.session.conversation.message.added', {
        conversationId: 'conv-ava',
        message: inAva(message('a2', 'OUT', 'A reply sent from elsewhere')),
      });
    });
    expect(screen.getByRole('button', { name: 'Ava Thompson' })).toBeInTheDocument();
    server(() =>
      socket.receive('technician.session.conversation.message.added', {
        conversationId: 'conv-ava',
        message: inAva(message('a3', 'IN', 'Hello?')),
      }),
    );
    expect(
      await screen.findByRole('button', { name: 'Ava Thompson (unread)' }),
    ).toBeInTheDocument();
  });

  it('shows the transcript loading, and says so when a conversation has no messages yet', async () => {
    transcript = [];
    let answer: (() => void) | null = null;
    const view = await holdingNoah({
      'GET /internal/conversations/conv-noah/messages': (request) =>
        new Promise((resolve) => {
          answer = () => resolve(messagesRoute(request));
        }),
    });
    expect(await screen.findByText('Loading the conversation…')).toBeInTheDocument();
    await waitFor(() => expect(answer).not.toBeNull());
    act(() => answer?.());
    expect(await screen.findByText('No messages in this conversation yet.')).toBeInTheDocument();
    expect(screen.queryByText('Loading the conversation…')).not.toBeInTheDocument();
    expect(view.socket).toBeDefined();
  });

  it('says why scheduling failed, and does not end the conversation', async () => {
    const { socket, events } = await holdingNoah({
      'POST /internal/appointments/_schedule': () =>
        errorAnswer(500, 'Internal Server Error', 'boom'),
    });
    await events.click(screen.getByRole('button', { name: 'End and schedule appointment' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^Date and time/), {
      target: { value: FUTURE },
    });
    await events.click(within(dialog).getByRole('combobox', { name: /^Physician/ }));
    await events.click(await screen.findByRole('option', { name: 'Iris Hale' }));
    fireEvent.change(within(dialog).getByLabelText(/Appointment note/), {
      target: { value: 'Note' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Consumer note/), { target: { value: 'Note' } });
    await events.click(within(dialog).getByRole('button', { name: 'Schedule and end' }));
    expect(
      await screen.findByText(
        'Error trying to save. Try again. If the problem persists contact support about a server error. Internal Server Error - boom',
      ),
    ).toBeInTheDocument();
    expect(sent(socket, 'technician.session.conversation.end')).toHaveLength(0);
  }, 20_000);

  it('says Conversation not found when the transcript cannot be loaded', async () => {
    await holdingNoah({
      'GET /internal/conversations/conv-noah/messages': () =>
        errorAnswer(404, 'Not Found', "no conversation with the id 'conv-noah'"),
    });
    expect(
      await screen.findAllByText(
        "Conversation not found - Not Found - no conversation with the id 'conv-noah'",
      ),
    ).not.toHaveLength(0);
  });

  it('Pause closes the connection and clears everything', async () => {
    const { socket, events } = await holdingNoah();
    await screen.findByText('What brings you in today?');
    await events.click(screen.getByRole('button', { name: 'Pause' }));
    expect(socket.closedWith).not.toBeNull();
    expect(screen.getByText('Paused click resume to continue')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Noah Williams/ })).not.toBeInTheDocument();
    expect(screen.queryByText('What brings you in today?')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
  });
});
