import { dataschemaUri, type CloudEvent } from '@loopdesk/contracts/realtime.ts';
import type { SocketLike } from '../lib/socket/technician-socket.ts';

/** A sent or received event as the tests read it. */
export type SentEvent = Pick<CloudEvent, 'id' | 'type' | 'source' | 'dataschema' | 'data'>;

/**
 * A stand-in for the browser WebSocket, for tests: each instance records what the portal sent,
 * and the test plays the server (open, refuse, close, send).
 */
export class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  readonly sent: string[] = [];
  /** What the portal passed to close(), if it closed the socket itself. */
  closedWith: { code: number | undefined; reason: string | undefined } | null = null;

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}

  send(data: string): void {
    if (this.readyState !== 1) {
      throw new Error('InvalidStateError: the socket is not open');
    }
    this.sent.push(data);
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    const wasOpen = this.readyState === 1;
    this.readyState = 3;
    // Like a browser, a close asked for by the page still fires 'close' (if anyone listens).
    if (wasOpen) {
      this.onclose?.(new CloseEvent('close', { code: code ?? 1005, reason: reason ?? '' }));
    }
  }

  /** The events the portal sent, parsed. */
  events(): SentEvent[] {
    return this.sent.map((frame) => JSON.parse(frame) as SentEvent);
  }

  types(): string[] {
    return this.events().map((event) => event.type);
  }

  /** The server accepts the upgrade. */
  accept(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  /** The server refuses the upgrade (401/403) or cannot be reached: error, then close 1006. */
  refuse(): void {
    this.readyState = 3;
    this.onerror?.(new Event('error'));
    this.onclose?.(new CloseEvent('close', { code: 1006, reason: '' }));
  }

  /** The server (or the network) closes the socket. */
  drop(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code, reason, wasClean: code !== 1006 }));
  }

  /** The server sends a CloudEvents frame. */
  receive(type: string, data: unknown = {}, id = `server-${type}`): void {
    this.receiveRaw(
      JSON.stringify({
        specversion: '1.0',
        id,
        type,
        source: '/portal',
        datacontenttype: 'application/json',
        dataschema: dataschemaUri('http://portal.test', type),
        data,
      }),
    );
  }

  receiveRaw(frame: string): void {
    this.onmessage?.(new MessageEvent('message', { data: frame }));
  }
}

/** A WebSocket constructor whose instances the test can reach. */
export function fakeWebSockets() {
  const sockets: FakeSocket[] = [];
  class WebSocket extends FakeSocket {
    constructor(url: string, protocols: string[] = []) {
      super(url, protocols);
      sockets.push(this);
    }
  }
  return {
    WebSocket,
    sockets,
    /** The newest socket; fails the test if none was opened. */
    last(): FakeSocket {
      const socket = sockets.at(-1);
      if (!socket) {
        throw new Error('No socket was opened.');
      }
      return socket;
    },
  };
}
