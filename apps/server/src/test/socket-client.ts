import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { PING_EVENT, PONG_EVENT } from '@loopdesk/contracts/realtime.ts';
import { frameProblem } from './frame-check.ts';

export interface ReceivedEvent {
  type: string;
  source: string;
  datacontenttype: string;
  dataschema?: string;
  data: Record<string, unknown>;
}

/** A technician's socket for tests: waits for events by type, sends CloudEvents. */
export interface TestSocket {
  readonly ws: WebSocket;
  /** Resolves with the next event of this type (skipping others, including pings). */
  next(type: string, timeoutMs?: number): Promise<ReceivedEvent>;
  send(type: string, data?: unknown): void;
  sendRaw(frame: string): void;
  closed: Promise<{ code: number; reason: string }>;
  received: ReceivedEvent[];
  /** Frames that were not valid CloudEvents or whose data did not match their dataschema. */
  invalid: string[];
}

/** Opens a socket with the access token as sub-protocol; rejects with the HTTP status if refused. */
export function openSocket(
  baseUrl: string,
  path: string,
  token: string | null,
  options: { answerPings?: boolean } = {},
): Promise<TestSocket> {
  const url = baseUrl.replace(/^http/, 'ws') + path;
  const ws = token ? new WebSocket(url, [token]) : new WebSocket(url);
  const received: ReceivedEvent[] = [];
  const waiters: { type: string; resolve: (e: ReceivedEvent) => void }[] = [];
  let cursor = 0;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  const invalid: string[] = [];
  const origin = new URL(baseUrl).origin;
  ws.on('message', (raw: Buffer) => {
    const event = JSON.parse(raw.toString()) as ReceivedEvent;
    const problem = frameProblem(origin, event as unknown as Record<string, unknown>);
    if (problem) {
      invalid.push(problem);
    }
    if (event.type === PING_EVENT && options.answerPings !== false) {
      ws.send(
        JSON.stringify({
          specversion: '1.0',
          id: randomUUID(),
          type: PONG_EVENT,
          source: '/portal',
          data: {},
        }),
      );
    }
    received.push(event);
    flush();
  });
  function flush() {
    for (let i = 0; i < waiters.length; i++) {
      const waiter = waiters[i];
      if (!waiter) {
        continue;
      }
      const index = received.findIndex((e, at) => at >= cursor && e.type === waiter.type);
      if (index >= 0) {
        cursor = index + 1;
        waiters.splice(i, 1);
        i--;
        const event = received[index];
        if (event) {
          waiter.resolve(event);
        }
      }
    }
  }
  const socket: TestSocket = {
    ws,
    received,
    invalid,
    closed,
    next(type, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        // Every frame the server sent so far was a valid CloudEvent matching its dataschema.
        if (invalid.length > 0) {
          reject(new Error(`the server sent invalid frames: ${invalid.join('; ')}`));
          return;
        }
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `no ${type} within ${timeoutMs} ms; got ${received.map((e) => e.type).join(', ')}`,
              ),
            ),
          timeoutMs,
        );
        waiters.push({
          type,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event);
          },
        });
        flush();
      });
    },
    send(type, data = {}) {
      ws.send(
        JSON.stringify({
          specversion: '1.0',
          id: randomUUID(),
          type,
          source: '/portal',
          datacontenttype: 'application/json',
          data,
        }),
      );
    },
    sendRaw(frame) {
      ws.send(frame);
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_request, response) =>
      reject(new Error(`refused with ${response.statusCode}`)),
    );
    ws.once('error', reject);
  });
}

/**
 * A valid `message.annotation` submission (spec 1 §7) for a held job: the annotate-call body with
 * the job's id; `overrides` replace or add fields.
 */
export function annotationData(
  jobId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    jobId,
    action: 'answer',
    conversationId: 'conversation-1',
    messageId: 'message-1',
    entities: [],
    slot: { id: 'slot-1', type: 'text', code: 'chief_complaints', value: null },
    ...overrides,
  };
}
