import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
  CORRECTLY_ANNOTATED_MESSAGE,
} from '@loopdesk/workbench/validation.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
} from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { INVALID_STATE_MESSAGE } from '../../../workbench/components/message-annotation-panel.tsx';
import { messageRegion, select } from '../../../test/panel-test-kit.tsx';
import { FederatedRoute } from './federated-route.tsx';

// Several user steps each: the default 5 s is tight on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const JOB_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const MESSAGE = 'My headache started yesterday morning';

/** A message annotation job as the assistant sends it (spec 1 §3 "Job event data"). */
function annotationJob(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    jobId: JOB_ID,
    tenant: 'acme',
    slotSpecification: {
      code: 'headache_start',
      short_description: 'when the headache started',
      data_type: 'string',
      multiplicity: '0..1',
    },
    slot: { _id: 'slot-7', code: 'headache_start' },
    relatedSlots: ['severity'],
    relatedSlotSpecifications: [
      { code: 'severity', short_description: 'how bad it is' },
      { code: 'location', short_description: 'where it hurts' },
    ],
    lastTurn: {
      content: MESSAGE,
      messageId: 'msg-1',
      userId: 'patient-9',
      metadata: { conversationId: 'conv-1', entities: [] },
    },
    quinnLastTurn: { content: 'When did the headache start?' },
    job: { purpose: 'full' },
    ...overrides,
  };
}

const user = makeUser(['annotator']);
const countRoute = (handler: FakeHandler) => ({ 'GET /internal/sessions/_count': handler });

function signIn() {
  setSession({
    status: 'signed-in',
    accessToken: 'token-ann',
    expiresAt: Date.now() + 15 * 60_000,
    refreshedAt: Date.now(),
    user,
  });
}

async function renderFederated(routes: Record<string, FakeHandler> = {}) {
  installFakeServer({
    ...signedInRoutes(user),
    ...countRoute(() => json(200, { federated: 3, exception: 1 })),
    ...routes,
  });
  signIn();
  const fake = fakeWebSockets();
  const events = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <FederatedRoute WebSocket={fake.WebSocket} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  await waitFor(() => expect(socketOn(fake)).toBeDefined());
  return { fake, events };
}

/** Plays the server on the socket. */
const server = (fn: () => void) => act(fn);

/** The newest socket on `path`: the screen also opens the priority socket (/ws/priority). */
function socketOn(fake: ReturnType<typeof fakeWebSockets>, path = '/ws/federated'): FakeSocket {
  const socket = fake.sockets.filter((s) => new URL(s.url).pathname === path).at(-1);
  if (!socket) {
    throw new Error(`No socket on ${path} was opened.`);
  }
  return socket;
}

/** Connected, resumed, and holding `data` as a message annotation job. */
async function holdingJob(data: Record<string, unknown> = annotationJob()) {
  const view = await renderFederated();
  const socket = socketOn(view.fake);
  server(() => socket.accept());
  await view.events.click(screen.getByRole('button', { name: 'Resume' }));
  server(() => socket.receive('message.annotation.job', data, 'job-event-1'));
  return { ...view, socket };
}

const message = messageRegion;

const submissions = (socket: FakeSocket, type: string) =>
  socket.events().filter((event) => event.type === type);

describe('federated jobs screen', () => {
  beforeEach(() => {
    // Fresh selection per test: jsdom keeps one document.
    window.getSelection()?.removeAllRanges();
  });

  it('shows Reconnect until connected, then paused, waiting after Resume, paused after Pause', async () => {
    const { fake, events } = await renderFederated();
    const socket = socketOn(fake);
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Connection status' })).toHaveTextContent('off');

    server(() => socket.accept());
    expect(screen.getByText('Paused click resume to continue')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Connection status' })).toHaveTextContent('on');
    expect(socket.types()).toEqual(['technician.session.pause']);

    await events.click(screen.getByRole('button', { name: 'Resume' }));
    expect(socket.types()).toEqual(['technician.session.pause', 'technician.session.activate']);
    expect(screen.getByText('Waiting for next message')).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Pause' }));
    expect(socket.types().at(-1)).toBe('technician.session.pause');
    server(() =>
      socket.receive('technician.session.paused', { state: 'paused', source: 'federated' }),
    );
    expect(screen.getByText('Paused click resume to continue')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
  });

  it('a dropped connection shows Reconnect, which connects again and asks for work', async () => {
    const { fake, events } = await renderFederated();
    server(() => socketOn(fake).accept());
    server(() => socketOn(fake).drop(1006));
    expect(screen.getByRole('status', { name: 'Connection status' })).toHaveTextContent('closed');

    await events.click(screen.getByRole('button', { name: 'Reconnect' }));
    await waitFor(() =>
      expect(fake.sockets.filter((s) => s.url.endsWith('/ws/federated'))).toHaveLength(2),
    );
    server(() => socketOn(fake).accept());
    expect(socketOn(fake).types()).toEqual([
      'technician.session.pause',
      'technician.session.activate',
    ]);
    expect(screen.getByText('Waiting for next message')).toBeInTheDocument();
  });

  it('also holds the priority socket: Resume and Pause act on both; its priority job is shown and answered on it', async () => {
    const { fake, events } = await renderFederated();
    server(() => socketOn(fake).accept());
    await waitFor(() => expect(socketOn(fake, '/ws/priority')).toBeDefined());
    const priority = socketOn(fake, '/ws/priority');
    server(() => priority.accept());
    expect(priority.types()).toEqual(['technician.session.pause']);

    await events.click(screen.getByRole('button', { name: 'Resume' }));
    expect(socketOn(fake).types().at(-1)).toBe('technician.session.activate');
    expect(priority.types().at(-1)).toBe('technician.session.activate');

    // The priority queue's job comes on the priority socket only, and is shown first.
    server(() =>
      priority.receive(
        'intent.hpi.priority.job',
        {
          jobId: JOB_ID,
          tenant: 'acme',
          metadata: { xdhconvid: 'conv-2' },
          priority: 'Which of these worries you most?',
          choices: [
            { id: 'c1', extract: 'repeat of my inhaler' },
            { id: 'c2', extract: 'a rash on my arm' },
          ],
        },
        'priority-event-1',
      ),
    );
    expect(screen.getByText('Select the highest priority complaint.')).toBeInTheDocument();
    await events.click(screen.getByRole('radio', { name: 'a rash on my arm' }));
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(submissions(priority, 'hpi.prioritised').map((event) => event.data)).toEqual([
      { action: 'set_priority', conversationId: 'conv-2', priority: 'c2', jobId: JOB_ID },
    ]);
    expect(submissions(socketOn(fake), 'hpi.prioritised')).toEqual([]);
    server(() =>
      priority.receive('technician.session.waiting', { state: 'waiting', source: 'priority' }),
    );
    expect(screen.getByText('Waiting for next message')).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Pause' }));
    expect(socketOn(fake).types().at(-1)).toBe('technician.session.pause');
    expect(priority.types().at(-1)).toBe('technician.session.pause');
  });

  it('a priority socket that dropped comes back paused: the screen asks for Resume, which activates it', async () => {
    const { fake, events } = await renderFederated();
    server(() => socketOn(fake).accept());
    await waitFor(() => expect(socketOn(fake, '/ws/priority')).toBeDefined());
    server(() => socketOn(fake, '/ws/priority').accept());
    await events.click(screen.getByRole('button', { name: 'Resume' }));
    expect(screen.getByText('Waiting for next message')).toBeInTheDocument();

    server(() => socketOn(fake, '/ws/priority').drop(1006));
    await waitFor(
      () => expect(fake.sockets.filter((s) => s.url.endsWith('/ws/priority'))).toHaveLength(2),
      { timeout: 3000 },
    );
    server(() => socketOn(fake, '/ws/priority').accept());
    expect(screen.getByText('Paused click resume to continue')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Resume' }));
    expect(socketOn(fake, '/ws/priority').types()).toEqual([
      'technician.session.pause',
      'technician.session.activate',
    ]);
    expect(screen.getByText('Waiting for next message')).toBeInTheDocument();
  });

  it('shows the federated and exception session counts', async () => {
    await renderFederated();
    expect(await screen.findByText('Federated sessions: 3')).toBeInTheDocument();
    expect(screen.getByText('Exception sessions: 1')).toBeInTheDocument();
  });

  it('asks for the session counts again when the session turns on, without waiting for the poll', async () => {
    let federated = 0;
    const { fake, events } = await renderFederated(
      countRoute(() => json(200, { federated, exception: 0 })),
    );
    expect(await screen.findByText('Federated sessions: 0')).toBeInTheDocument();
    server(() => socketOn(fake).accept());
    federated = 1;
    await events.click(screen.getByRole('button', { name: 'Resume' }));
    server(() =>
      socketOn(fake).receive('technician.session.waiting', {
        state: 'waiting',
        source: 'federated',
      }),
    );
    expect(await screen.findByText('Federated sessions: 1')).toBeInTheDocument();
  });

  it('says unknown when the session count fails', async () => {
    await renderFederated(countRoute(() => errorAnswer(503, 'Service Unavailable', 'Later.')));
    expect(await screen.findByText('Federated sessions: unknown')).toBeInTheDocument();
    expect(screen.getByText('Exception sessions: unknown')).toBeInTheDocument();
  });

  it('shows a message job: last question, title and the message', async () => {
    await holdingJob();
    expect(
      screen.getByRole('heading', { name: 'Annotate when the headache started' }),
    ).toBeInTheDocument();
    expect(screen.getByText('When did the headache start?')).toBeInTheDocument();
    expect(message()).toHaveTextContent(MESSAGE);
    expect(screen.queryByText('Waiting for next message')).not.toBeInTheDocument();
  });

  it('selecting text opens the menu, a digit annotates, and submit sends exactly that', async () => {
    const { socket, events } = await holdingJob();
    select('yesterday morning');
    const menu = screen.getByRole('menu', { name: 'Categories' });
    // 'Slots' comes first (fewer than 10 related entries), then the categories in one steady
    // order (issue 20): the job's own slot the fixed set does not know, then the fixed HPI
    // categories (severity, related, among them), nine to a page; the intents last.
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items.slice(0, 5)).toEqual([
      '1Slots›',
      '2When the headache started',
      '3Chief complaint',
      '4Current complaint',
      '5Patient description',
    ]);
    expect(items).toHaveLength(9);

    await events.keyboard('2');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Delete When the headache started: yesterday morning' }),
    ).toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Submit' }));
    const sent = submissions(socket, 'message.annotation');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.data).toEqual({
      action: 'answer',
      conversationId: 'conv-1',
      messageId: 'msg-1',
      userId: 'patient-9',
      entities: [{ start: 20, end: 37, extract: 'yesterday morning', category: 'headache_start' }],
      slot: { id: 'slot-7', type: 'string', code: 'headache_start', value: null },
      jobId: JOB_ID,
    });
  });

  it('a submenu entry keeps the selection and shows the submenu', async () => {
    const { socket, events } = await holdingJob();
    select('headache');
    await events.keyboard('1');
    const menu = screen.getByRole('menu', { name: 'Categories' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['1Where it hurts']);
    expect(screen.getByRole('navigation', { name: 'Menu level' })).toHaveTextContent(
      'Categories › Slots',
    );
    await events.keyboard('1');
    expect(
      screen.getByRole('button', { name: 'Delete Where it hurts: headache' }),
    ).toBeInTheDocument();

    // Ctrl+Enter submits; 'location' is not the target slot.
    await events.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText(ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE)).toBeInTheDocument();
    expect(submissions(socket, 'message.annotation')).toHaveLength(0);
  });

  it('refuses a submit whose target slot is not annotated', async () => {
    const { socket, events } = await holdingJob();
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE)).toBeInTheDocument();
    expect(submissions(socket, 'message.annotation')).toHaveLength(0);
  });

  it('Ctrl+Enter submits', async () => {
    const { socket, events } = await holdingJob();
    select('yesterday morning');
    await events.keyboard('2');
    await events.keyboard('{Control>}{Enter}{/Control}');
    expect(submissions(socket, 'message.annotation')).toHaveLength(1);
  });

  it('Escape closes the menu without annotating', async () => {
    const { events } = await holdingJob();
    select('yesterday morning');
    expect(screen.getByRole('menu', { name: 'Categories' })).toBeInTheDocument();
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('? opens the keyboard shortcuts overlay', async () => {
    const { events } = await holdingJob();
    await events.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Ctrl + Enter')).toBeInTheDocument();
    // The colour keys of spec 1 §9 are listed with what they do.
    expect(
      within(dialog).getByRole('row', { name: /^0 Colour the highlights by category/ }),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('row', { name: /^` \(backtick\) Colour only/ }),
    ).toBeInTheDocument();
  });

  it('delete on a highlight removes every annotation with that extract', async () => {
    const { events } = await holdingJob(
      annotationJob({
        lastTurn: {
          content: MESSAGE,
          messageId: 'msg-1',
          metadata: {
            conversationId: 'conv-1',
            entities: [
              { start: 3, end: 11, extract: 'headache', category: 'sx' },
              { start: 3, end: 11, extract: 'headache', category: 'current_complaint' },
              { start: 20, end: 37, extract: 'yesterday morning', category: 'headache_start' },
            ],
          },
        },
      }),
    );
    expect(screen.getAllByRole('button', { name: /^Delete .*: headache$/ })).toHaveLength(2);
    await events.click(screen.getByRole('button', { name: 'Delete Symptom: headache' }));
    expect(screen.queryByRole('button', { name: /: headache$/ })).not.toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Delete When the headache started: yesterday morning' }),
    ).toBeInTheDocument();
  });

  it('raises an exception at once: suggest_escalation for a job with a purpose', async () => {
    const { socket, events } = await holdingJob();
    await events.click(screen.getByRole('button', { name: 'Exception' }));
    expect(submissions(socket, 'message.annotation')[0]?.data).toEqual({
      action: 'suggest_escalation',
      conversationId: 'conv-1',
      messageId: 'msg-1',
      userId: 'patient-9',
      entities: [],
      slot: { id: 'slot-7', type: 'string', code: 'headache_start', value: null },
      jobId: JOB_ID,
    });
  });

  it('a job without a purpose raises message.annotation.exception', async () => {
    const { socket, events } = await holdingJob(annotationJob({ job: undefined }));
    await events.click(screen.getByRole('button', { name: 'Exception' }));
    expect(submissions(socket, 'message.annotation.exception')[0]?.data).toEqual({
      action: 'exception',
      conversationId: 'conv-1',
      messageId: 'msg-1',
      slot: { id: 'slot-7', code: 'headache_start' },
      jobId: JOB_ID,
    });
  });

  it('refuses an exception on a correctly annotated message', async () => {
    const { socket, events } = await holdingJob();
    select('yesterday morning');
    await events.keyboard('2');
    await events.click(screen.getByRole('button', { name: 'Exception' }));
    expect(await screen.findByText(CORRECTLY_ANNOTATED_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(submissions(socket, 'message.annotation.exception')).toHaveLength(0);
  });

  it('says the conversation is in an invalid state when the job has no slot specification', async () => {
    await holdingJob(annotationJob({ slotSpecification: undefined }));
    expect(screen.getByText(INVALID_STATE_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exception' })).toBeInTheDocument();
  });

  it('uses the purpose prefix and action: annotate-only sends suggest_annotations', async () => {
    const { socket, events } = await holdingJob(
      annotationJob({ job: { purpose: 'annotate-only' } }),
    );
    expect(
      screen.getByRole('heading', { name: 'Annotate purpose: when the headache started' }),
    ).toBeInTheDocument();
    select('yesterday morning');
    await events.keyboard('2');
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(submissions(socket, 'message.annotation')[0]?.data).toMatchObject({
      action: 'suggest_annotations',
    });
  });

  it('verify-answered shows no menu, starts empty and submits suggest_continue', async () => {
    const { socket, events } = await holdingJob(
      annotationJob({
        job: { purpose: 'verify-answered' },
        lastTurn: {
          content: MESSAGE,
          messageId: 'msg-1',
          metadata: {
            conversationId: 'conv-1',
            entities: [
              { start: 20, end: 37, extract: 'yesterday morning', category: 'headache_start' },
            ],
          },
        },
      }),
    );
    expect(
      screen.getByRole('heading', { name: 'Verify answered: when the headache started' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    select('headache');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(submissions(socket, 'message.annotation')[0]?.data).toMatchObject({
      action: 'suggest_continue',
      entities: [],
    });
  });

  it('a selection extended with Shift+arrow opens the menu when the key is let go', async () => {
    await holdingJob();
    const range = document.createRange();
    const text = message().querySelector('[data-start]')?.firstChild;
    if (!text) {
      throw new Error('no message text');
    }
    range.setStart(text, 3);
    range.setEnd(text, 11);
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
    fireEvent.keyUp(message(), { key: 'Shift' });
    expect(screen.getByRole('menu', { name: 'Categories' })).toBeInTheDocument();
  });

  it('Space cycles the menu pages of nine entries', async () => {
    const related = Array.from({ length: 10 }, (_, i) => `slot_${i + 1}`);
    const { events } = await holdingJob(
      annotationJob({ relatedSlots: related, relatedSlotSpecifications: [] }),
    );
    select('headache');
    const items = () =>
      within(screen.getByRole('menu', { name: 'Categories' })).getAllByRole('menuitem');
    expect(items()).toHaveLength(9);
    expect(screen.getByText(/^Page 1 of 4/)).toBeInTheDocument();
    await events.keyboard(' ');
    expect(
      items()
        .slice(0, 3)
        .map((item) => item.textContent),
    ).toEqual(['1Slot 10', '2When the headache started', '3Chief complaint']);
    await events.keyboard('1');
    expect(screen.getByRole('button', { name: 'Delete Slot 10: headache' })).toBeInTheDocument();
  });

  it("a second submit while the first is unanswered shows the busy message once, and 'Busy processing.'", async () => {
    const { socket, events } = await holdingJob();
    select('yesterday morning');
    await events.keyboard('2');
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.queryByText('Busy processing.')).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getAllByText('Already processing previous submission.')).toHaveLength(1);
    // Spec 2 §5, §8: the panel also says 'Busy processing.'.
    expect(screen.getByText('Busy processing.')).toBeInTheDocument();
    expect(submissions(socket, 'message.annotation')).toHaveLength(1);
  });

  it('is the /jobs/federated screen, titled Federated Jobs', async () => {
    const fake = fakeWebSockets();
    vi.stubGlobal('WebSocket', fake.WebSocket);
    renderApp({
      path: '/jobs/federated',
      user,
      routes: countRoute(() => json(200, { federated: 0, exception: 0 })),
    });
    expect(await screen.findByRole('button', { name: 'Fullscreen' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Federated Jobs'),
    );
  });
});
