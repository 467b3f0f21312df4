import { CloudEvent } from 'cloudevents';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeWebSockets } from '../../test/fake-web-socket.ts';
import {
  CLOSED_ABNORMALLY_MESSAGE,
  DUPLICATE_SESSION_MESSAGE,
  NOT_OPEN_MESSAGE,
  RECONNECT_DELAY_MS,
  TechnicianSocket,
  technicianSocketUrl,
  type ConnectionStatus,
  type TokenRequest,
} from './technician-socket.ts';

function setup(tokens: (why: TokenRequest) => string | null = () => 'token-1') {
  const fake = fakeWebSockets();
  const statuses: ConnectionStatus[] = [];
  const errors: string[] = [];
  const events: string[] = [];
  const getToken = vi.fn((why: TokenRequest) => Promise.resolve(tokens(why)));
  let ids = 0;
  const client = new TechnicianSocket({
    url: 'ws://portal.test/ws/federated',
    getToken,
    WebSocket: fake.WebSocket,
    // The client's own timers are injected; Vitest's fake clock drives them.
    timers: {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    newId: () => `portal-${(ids += 1)}`,
    listener: {
      onStatus: (status) => statuses.push(status),
      onError: (message) => errors.push(message),
      onEvent: (event) => events.push(event.type),
    },
  });
  return { fake, client, statuses, errors, events, getToken };
}

/** Lets the token promise settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('technician socket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends every frame as a valid CloudEvent (the SDK validates it) naming its absolute dataschema', async () => {
    const { fake, client } = setup();
    client.connect();
    await settle();
    fake.last().accept();
    fake.last().receive('ping');
    client.send('technician.session.activate', {});
    client.send('message.annotation', { jobId: '0b8f7a52-58f4-4c3e-9d59-2f1b7fb1d2a4' });
    client.send('rpa.robot.clear', { jobId: '0b8f7a52-58f4-4c3e-9d59-2f1b7fb1d2a4' });
    client.send('message.manual.response', { conversationId: 'conv-1', content: 'Hello' });
    const sent = fake.last().events();
    expect(sent.map((event) => event.type)).toEqual([
      'technician.session.pause',
      'pong',
      'technician.session.activate',
      'message.annotation',
      'rpa.robot.clear',
      'message.manual.response',
    ]);
    for (const event of sent) {
      expect(() => new CloudEvent(event, true), event.type).not.toThrow();
    }
    expect(sent.map((event) => event.dataschema)).toEqual([
      ...Array<string>(4).fill('http://portal.test/schemas/20200718/quinn.json'),
      'http://portal.test/schemas/rpa.json',
      'http://portal.test/schemas/20200718/quinn.json',
    ]);
  });

  it('connects with the access token as the sub-protocol and asks for paused on open', async () => {
    const { fake, client, statuses } = setup();
    client.connect();
    await settle();
    expect(fake.last().url).toBe('ws://portal.test/ws/federated');
    expect(fake.last().protocols).toEqual(['token-1']);
    expect(client.status).toBe('off');

    fake.last().accept();
    expect(client.status).toBe('on');
    expect(statuses).toEqual(['on']);
    expect(fake.last().events()).toEqual([
      {
        specversion: '1.0',
        id: 'portal-1',
        type: 'technician.session.pause',
        source: '/portal',
        time: expect.any(String),
        datacontenttype: 'application/json',
        dataschema: 'http://portal.test/schemas/20200718/quinn.json',
        data: {},
      },
    ]);
  });

  it('answers ping with pong and passes other known events on', async () => {
    const { fake, client, events } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    fake.last().receive('ping');
    fake.last().receive('technician.session.waiting', { state: 'waiting', source: 'federated' });
    expect(fake.last().types()).toEqual(['technician.session.pause', 'pong']);
    expect(events).toEqual(['technician.session.waiting']);
  });

  it('only logs unknown event types and frames that are not CloudEvents', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const { fake, client, events, errors } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    fake.last().receive('something.new');
    fake.last().receiveRaw('not json');
    expect(events).toEqual([]);
    expect(errors).toEqual([]);
    expect(info).toHaveBeenCalledTimes(2);
    expect(String(info.mock.calls[0]?.[0])).toContain('something.new');
  });

  it(`says '${CLOSED_ABNORMALLY_MESSAGE}' on an abnormal close and reconnects after 500 ms`, async () => {
    const { fake, client, errors, statuses, getToken } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    fake.last().drop(1006);
    expect(client.status).toBe('closed');
    expect(errors).toEqual([CLOSED_ABNORMALLY_MESSAGE]);

    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS - 1);
    expect(fake.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.sockets).toHaveLength(2);
    expect(getToken.mock.calls.map(([why]) => why)).toEqual(['connect', 'reconnect']);

    fake.last().accept();
    expect(statuses).toEqual(['on', 'closed', 'on']);
    expect(fake.last().types()).toEqual(['technician.session.pause']);
  });

  it('treats a server restart or an administrator closing the session as abnormal too', async () => {
    const { fake, client, errors } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    fake.last().drop(1001, 'The server is restarting; reconnect.');
    expect(errors).toEqual([CLOSED_ABNORMALLY_MESSAGE]);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    expect(fake.sockets).toHaveLength(2);
  });

  it('marks a refused connection closed, says nothing, and retries after 500 ms with a fresh token', async () => {
    let n = 0;
    const { fake, client, errors, getToken } = setup(() => `token-${(n += 1)}`);
    client.connect();
    await settle();

    fake.last().refuse();
    expect(client.status).toBe('closed');
    expect(errors).toEqual([]);

    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    expect(fake.sockets).toHaveLength(2);
    expect(getToken.mock.calls.map(([why]) => why)).toEqual(['connect', 'refused']);
    expect(fake.last().protocols).toEqual(['token-2']);

    fake.last().refuse();
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS);
    fake.last().accept();
    expect(client.status).toBe('on');
    expect(fake.sockets).toHaveLength(3);
  });

  it('stops reconnecting when there is no token any more (signed out)', async () => {
    let signedIn = true;
    const { fake, client } = setup(() => (signedIn ? 'token-1' : null));
    client.connect();
    await settle();
    fake.last().accept();

    signedIn = false;
    fake.last().drop(1006);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 10);
    expect(fake.sockets).toHaveLength(1);
    expect(client.status).toBe('closed');
  });

  it('a second session closed with 1008 shows the spec message and never reconnects', async () => {
    const { fake, client, errors } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    fake.last().drop(1008, DUPLICATE_SESSION_MESSAGE.slice(0, 123));
    expect(client.status).toBe('closed');
    expect(errors).toEqual([
      'You already have a session open. Please close all sessions, or contact an administrator to force the termination of your sessions.',
    ]);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 20);
    expect(fake.sockets).toHaveLength(1);
  });

  it('a session closed by an administrator (4000) says so and never reconnects', async () => {
    const { fake, client, errors } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    fake.last().drop(4000, 'Your session was closed by an administrator.');
    expect(client.status).toBe('closed');
    expect(errors).toEqual(['Your session was closed by an administrator.']);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 20);
    expect(fake.sockets).toHaveLength(1);
  });

  it('a socket whose sign-in session ended (4001) says so and never reconnects', async () => {
    const { fake, client, errors } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    fake.last().drop(4001, 'Your sign-in session has ended: sign in again.');
    expect(client.status).toBe('closed');
    expect(errors).toEqual(['Your sign-in session has ended: sign in again.']);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 20);
    expect(fake.sockets).toHaveLength(1);
  });

  it(`says '${NOT_OPEN_MESSAGE}' when sending on a socket that is not open`, async () => {
    const { fake, client, errors } = setup();
    expect(client.send('message.annotation', { jobId: 'j' })).toBe(false);

    client.connect();
    await settle();
    expect(client.send('message.annotation', { jobId: 'j' })).toBe(false);

    fake.last().accept();
    fake.last().drop(1006);
    expect(client.send('message.annotation', { jobId: 'j' })).toBe(false);
    expect(errors).toEqual([
      NOT_OPEN_MESSAGE,
      NOT_OPEN_MESSAGE,
      CLOSED_ABNORMALLY_MESSAGE,
      NOT_OPEN_MESSAGE,
    ]);
  });

  it('sends an event on an open socket and returns its id', async () => {
    const { fake, client } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    expect(client.send('message.annotation', { jobId: 'job-1' })).toBe('portal-2');
    expect(fake.last().events()[1]).toMatchObject({
      id: 'portal-2',
      type: 'message.annotation',
      source: '/portal',
      data: { jobId: 'job-1' },
    });
  });

  it('close() is intentional: no message and no reconnect, even while a token is on its way', async () => {
    const { fake, client, errors, statuses } = setup();
    client.connect();
    await settle();
    fake.last().accept();

    client.close();
    expect(client.status).toBe('off');
    expect(fake.last().closedWith).toEqual({ code: 1000, reason: expect.any(String) });
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 10);
    expect(fake.sockets).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(statuses).toEqual(['on', 'off']);

    // Closed before the token arrives: no socket is created at all.
    client.connect();
    client.close();
    await settle();
    expect(fake.sockets).toHaveLength(1);
  });

  it('connect() during the reconnect delay connects at once, and only once', async () => {
    const { fake, client } = setup();
    client.connect();
    await settle();
    fake.last().accept();
    fake.last().drop(1006);

    client.connect();
    client.connect();
    await settle();
    expect(fake.sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS * 4);
    expect(fake.sockets).toHaveLength(2);
  });
});

describe('technician socket address', () => {
  it('uses /ws/{source} on the page origin, ws or wss after http or https', () => {
    expect(technicianSocketUrl('federated', 'https://portal.example.com/jobs/federated')).toBe(
      'wss://portal.example.com/ws/federated',
    );
    expect(technicianSocketUrl('exceptions', 'http://localhost:5173/')).toBe(
      'ws://localhost:5173/ws/exceptions',
    );
  });

  it('takes the priority address from the portal config, or the server default when empty', () => {
    expect(technicianSocketUrl('priority', 'https://p.example.com/', '')).toBe(
      'wss://p.example.com/ws/priority',
    );
    expect(
      technicianSocketUrl('priority', 'https://p.example.com/', 'wss://rt.example.com/priority'),
    ).toBe('wss://rt.example.com/priority');
    expect(technicianSocketUrl('priority', 'https://p.example.com/', '/realtime/priority')).toBe(
      'wss://p.example.com/realtime/priority',
    );
  });
});
