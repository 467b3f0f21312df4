import {
  dataschemaUri,
  CloudEvent,
  ADMIN_CLOSE_CODE,
  ADMIN_CLOSE_MESSAGE,
  DUPLICATE_SESSION_CLOSE_CODE,
  DUPLICATE_SESSION_MESSAGE,
  ERROR_EVENT,
  JOB_EVENT_TYPES,
  PING_EVENT,
  PONG_EVENT,
  PORTAL_SOURCE,
  SESSION_ENDED_CLOSE_CODE,
  SESSION_ENDED_MESSAGE,
  SESSION_EVENT_TYPES,
  SOCKET_PATHS,
  STATE_REQUESTS,
  type SessionSource,
} from '@loopdesk/contracts/realtime.ts';
import { EXCEPTION_EVENTS } from '@loopdesk/contracts/exceptions.ts';

/** Connection status shown in the jobs screens' header (spec 1 §2 "off, on, closed"). */
export type ConnectionStatus = 'off' | 'on' | 'closed';

/** Spec 1 §9: socket reconnect delay, after an abnormal close or a refused connection. */
export const RECONNECT_DELAY_MS = 500;
/** Spec 1 §8: shown when the socket closes without the portal asking, then it reconnects. */
export const CLOSED_ABNORMALLY_MESSAGE = 'Websocket closed abnormally.';
/** Spec 1 §8: shown when sending while the socket is not open. */
export const NOT_OPEN_MESSAGE = 'Websocket is not open, please refresh.';
/** Spec 1 §8 + §9: close code 1008 is a second session; its message is shown and there is no reconnect. */
export { DUPLICATE_SESSION_CLOSE_CODE, DUPLICATE_SESSION_MESSAGE };

/** Spec 1 §4: on socket open the portal immediately requests paused. */
export const PAUSE_REQUEST = STATE_REQUESTS.pause;
export const ACTIVATE_REQUEST = STATE_REQUESTS.activate;
/** Spec 1 §7: 'ping' is answered with 'pong'. */
export const PING = PING_EVENT;
export const PONG = PONG_EVENT;
/** The server's answer to a frame it could not use: data `{ message, eventId?, eventType? }`. */
export { ERROR_EVENT };

/** The socket addresses (ARCHITECTURE "Realtime work"); priority's comes from the portal config. */
export { SOCKET_PATHS };

/**
 * Spec 1 §7 "Incoming events". Anything else is only logged (spec: "An unknown event type is only
 * logged"). The conversation events are the exception session's.
 */
export const INCOMING_EVENT_TYPES: ReadonlySet<string> = new Set<string>([
  ...Object.values(SESSION_EVENT_TYPES),
  ...JOB_EVENT_TYPES,
  ERROR_EVENT,
  ...Object.values(EXCEPTION_EVENTS),
]);

const CONNECTING = 0;
const OPEN = 1;

/** The part of the browser's WebSocket the client uses; tests inject a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketConstructor = new (url: string, protocols: string[]) => SocketLike;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Why a token is wanted: the first connection, a reconnection after an abnormal close, or a
 * reconnection after a refused connection (a refusal may mean the token is no longer accepted).
 */
export type TokenRequest = 'connect' | 'reconnect' | 'refused';

export interface TechnicianSocketListener {
  /** The status changed. */
  onStatus?(status: ConnectionStatus): void;
  /** A known incoming event other than 'ping' (answered here). */
  onEvent?(event: CloudEvent): void;
  /** A message to show the technician (spec 1 §8). */
  onError?(message: string): void;
  /**
   * The server closed the socket for good with code 1008, a second session (spec 1 §4, §8): after
   * `onError` with its message; there is no reconnect.
   */
  onDuplicate?(): void;
  /** An event the portal sent on the socket, as sent (the portal event is also posted, spec 1 §7). */
  onSent?(event: CloudEvent): void;
}

export interface TechnicianSocketOptions {
  /** Absolute ws:// or wss:// address. */
  url: string;
  /** The access token, sent as the sub-protocol; null stops connecting (signed out). */
  getToken: (why: TokenRequest) => Promise<string | null>;
  listener?: TechnicianSocketListener;
  WebSocket?: SocketConstructor;
  timers?: Timers;
  /** Event ids; defaults to `crypto.randomUUID()`. */
  newId?: () => string;
}

/** Turns a socket path or address into an absolute ws:// / wss:// URL against `base`. */
export function socketUrl(pathOrUrl: string, base: string): string {
  const url = new URL(pathOrUrl, base);
  if (url.protocol === 'http:') {
    url.protocol = 'ws:';
  } else if (url.protocol === 'https:') {
    url.protocol = 'wss:';
  }
  return url.href;
}

/** The address of a technician socket; an empty `priorityWsUrl` means the server's own. */
export function technicianSocketUrl(
  source: SessionSource,
  base: string,
  priorityWsUrl?: string,
): string {
  const path = source === 'priority' && priorityWsUrl ? priorityWsUrl : SOCKET_PATHS[source];
  return socketUrl(path, base);
}

const defaultTimers: Timers = {
  // Looked up at call time so that test fake timers apply.
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

type Drop = 'refused' | 'abnormal' | 'duplicate' | 'closed-by-admin' | 'session-ended';

/**
 * One technician socket (spec 1 §4 "Websocket lifecycle", §8): connects with the token as the
 * sub-protocol, asks for paused on open, answers pings, reconnects after 500 ms unless the close
 * was asked for or was a duplicate session (1008).
 */
export class TechnicianSocket {
  readonly #url: string;
  readonly #getToken: (why: TokenRequest) => Promise<string | null>;
  readonly #listener: TechnicianSocketListener;
  readonly #WebSocket: SocketConstructor;
  readonly #timers: Timers;
  readonly #newId: () => string;

  #status: ConnectionStatus = 'off';
  #socket: SocketLike | null = null;
  #opened = false;
  /** Bumped by every connection attempt and by close(): stale async work compares against it. */
  #attempt = 0;
  #connecting = false;
  #reconnectTimer: unknown = null;

  constructor(options: TechnicianSocketOptions) {
    this.#url = options.url;
    this.#getToken = options.getToken;
    this.#listener = options.listener ?? {};
    const ctor = options.WebSocket ?? (globalThis as { WebSocket?: SocketConstructor }).WebSocket;
    if (!ctor) {
      throw new Error('WebSocket is not available in this browser.');
    }
    this.#WebSocket = ctor;
    this.#timers = options.timers ?? defaultTimers;
    this.#newId = options.newId ?? (() => crypto.randomUUID());
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  /** Opens the socket unless it is open or opening; a pending reconnect happens now. */
  connect(): void {
    if (this.#socket || this.#connecting) {
      return;
    }
    this.#clearReconnect();
    void this.#open('connect');
  }

  /** Closes on purpose: no message, no reconnect. */
  close(): void {
    this.#attempt += 1;
    this.#connecting = false;
    this.#clearReconnect();
    const socket = this.#socket;
    this.#socket = null;
    if (socket) {
      detach(socket);
      if (socket.readyState === CONNECTING || socket.readyState === OPEN) {
        socket.close(1000, 'The technician left the screen.');
      }
    }
    this.#setStatus('off');
  }

  /**
   * Sends a portal event. Returns its id, or false (and reports NOT_OPEN_MESSAGE) when the socket
   * is not open.
   */
  send(type: string, data: unknown): string | false {
    const socket = this.#socket;
    if (!socket || !this.#opened || socket.readyState !== OPEN) {
      this.#listener.onError?.(NOT_OPEN_MESSAGE);
      return false;
    }
    const event: CloudEvent = {
      specversion: '1.0',
      id: this.#newId(),
      type,
      source: PORTAL_SOURCE,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      // The server at the socket's address serves the schema (ws: → http:, wss: → https:).
      dataschema: dataschemaUri(new URL(this.#url).origin.replace(/^ws/, 'http'), type),
      data,
    };
    socket.send(JSON.stringify(event));
    this.#listener.onSent?.(event);
    return event.id;
  }

  async #open(why: TokenRequest): Promise<void> {
    this.#attempt += 1;
    const attempt = this.#attempt;
    this.#connecting = true;
    let token: string | null;
    try {
      token = await this.#getToken(why);
    } catch (error) {
      console.info('No access token for the technician socket', error);
      token = null;
    }
    if (attempt !== this.#attempt) {
      // close() was called meanwhile.
      return;
    }
    this.#connecting = false;
    if (!token) {
      // Signed out: the portal is on its way to /login, so there is nothing to reconnect.
      this.#setStatus('closed');
      return;
    }
    let socket: SocketLike;
    try {
      socket = new this.#WebSocket(this.#url, [token]);
    } catch (error) {
      console.info('The technician socket could not be created', error);
      this.#setStatus('closed');
      this.#scheduleReconnect('refused');
      return;
    }
    this.#socket = socket;
    this.#opened = false;
    socket.onopen = () => {
      if (socket !== this.#socket) {
        return;
      }
      this.#opened = true;
      // Before 'on' is reported, so that a listener's activate request goes after the pause.
      this.send(PAUSE_REQUEST, {});
      this.#setStatus('on');
    };
    socket.onmessage = (event) => {
      if (socket === this.#socket) {
        this.#receive(event.data);
      }
    };
    socket.onerror = () => {
      // After open, the close event that follows says what happened.
      if (socket === this.#socket && !this.#opened) {
        this.#drop(socket, 'refused');
      }
    };
    socket.onclose = (event) => {
      if (socket !== this.#socket) {
        return;
      }
      if (event.code === DUPLICATE_SESSION_CLOSE_CODE) {
        this.#drop(socket, 'duplicate');
      } else if (event.code === ADMIN_CLOSE_CODE) {
        this.#drop(socket, 'closed-by-admin');
      } else if (event.code === SESSION_ENDED_CLOSE_CODE) {
        this.#drop(socket, 'session-ended');
      } else {
        this.#drop(socket, this.#opened ? 'abnormal' : 'refused');
      }
    };
  }

  #drop(socket: SocketLike, why: Drop): void {
    detach(socket);
    this.#socket = null;
    this.#opened = false;
    if (socket.readyState === CONNECTING || socket.readyState === OPEN) {
      socket.close();
    }
    this.#setStatus('closed');
    switch (why) {
      case 'duplicate':
        this.#listener.onError?.(DUPLICATE_SESSION_MESSAGE);
        this.#listener.onDuplicate?.();
        return;
      case 'closed-by-admin':
        // An administrator ended the session on purpose: reconnecting would undo it.
        this.#listener.onError?.(ADMIN_CLOSE_MESSAGE);
        return;
      case 'session-ended':
        // The sign-in session ended (logout in another tab, a timeout): a new socket would be
        // refused; the portal's next token request sends the browser to sign in (spec 1 §8).
        this.#listener.onError?.(SESSION_ENDED_MESSAGE);
        return;
      case 'abnormal':
        this.#listener.onError?.(CLOSED_ABNORMALLY_MESSAGE);
        this.#scheduleReconnect('reconnect');
        return;
      case 'refused':
        // Spec 1 §8: a refused connection is not shown; it is marked closed and retried.
        this.#scheduleReconnect('refused');
        return;
    }
  }

  #scheduleReconnect(why: TokenRequest): void {
    this.#clearReconnect();
    this.#reconnectTimer = this.#timers.setTimeout(() => {
      this.#reconnectTimer = null;
      void this.#open(why);
    }, RECONNECT_DELAY_MS);
  }

  #clearReconnect(): void {
    if (this.#reconnectTimer !== null) {
      this.#timers.clearTimeout(this.#reconnectTimer);
      this.#reconnectTimer = null;
    }
  }

  #setStatus(status: ConnectionStatus): void {
    if (status !== this.#status) {
      this.#status = status;
      this.#listener.onStatus?.(status);
    }
  }

  #receive(raw: unknown): void {
    let json: unknown;
    try {
      json = typeof raw === 'string' ? JSON.parse(raw) : undefined;
    } catch {
      json = undefined;
    }
    const parsed = CloudEvent.safeParse(json);
    if (!parsed.success) {
      console.info('Ignored a socket frame that is not a CloudEvents envelope', raw);
      return;
    }
    const event = parsed.data;
    if (event.type === PING) {
      this.send(PONG, {});
      return;
    }
    if (!INCOMING_EVENT_TYPES.has(event.type)) {
      console.info(`Ignored the unknown socket event type ${event.type}`, event);
      return;
    }
    this.#listener.onEvent?.(event);
  }
}

function detach(socket: SocketLike): void {
  socket.onopen = null;
  socket.onmessage = null;
  socket.onerror = null;
  socket.onclose = null;
}
