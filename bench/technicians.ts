/**
 * bench/dispatch's technicians: 100 portal sockets in a process of their own, as the technicians'
 * browsers are other machines, not callbacks in the server's event loop. Each socket
 * resumes, answers every job the moment its frame arrives (the no-op), and reports the job's
 * latency — from the producer's call to the frame's arrival here, on a clock both processes share —
 * to the benchmark over IPC, in batches.
 */
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { PING_EVENT, PONG_EVENT, STATE_REQUESTS } from '@loopdesk/contracts/realtime.ts';

/** Milliseconds on a clock the benchmark's process shares (absolute, sub-millisecond). */
export const clock = () => performance.timeOrigin + performance.now();

/** What the benchmark gives the process. */
export interface TechniciansData {
  url: string;
  tokens: string[];
}

/**
 * Messages from the process: ready, batches of [phase, latency ms, arrival on the shared clock],
 * the clock, stopped.
 */
export type TechniciansMessage =
  | { type: 'ready' }
  | { type: 'started'; items: [number, number, number][] }
  | { type: 'clock'; at: number }
  | { type: 'stopped' };

/** Messages to the process. */
export type TechniciansCommand =
  { type: 'start'; data: TechniciansData } | { type: 'clock' } | { type: 'stop' };

const BATCH_MS = 5;

async function main(data: TechniciansData): Promise<void> {
  const post = (message: TechniciansMessage) => process.send?.(message);
  const event = (type: string, body: unknown) =>
    JSON.stringify({
      specversion: '1.0',
      id: randomBytes(8).toString('hex'),
      type,
      source: '/portal',
      data: body,
    });
  let batch: [number, number, number][] = [];
  const flush = () => {
    if (batch.length > 0) {
      post({ type: 'started', items: batch });
      batch = [];
    }
  };
  const timer = setInterval(flush, BATCH_MS);

  const sockets = await Promise.all(
    data.tokens.map(async (token) => {
      const ws = new WebSocket(data.url, [token]);
      ws.on('message', (raw: Buffer) => {
        const frame = JSON.parse(raw.toString()) as {
          type: string;
          data: { t0: number; phase: number; jobId: string };
        };
        if (frame.type === PING_EVENT) {
          ws.send(event(PONG_EVENT, {}));
        } else if (frame.type === 'message.annotation.job') {
          const at = clock();
          batch.push([frame.data.phase, at - frame.data.t0, at]);
          // The technician answers at once: the no-op.
          ws.send(
            event('message.annotation', {
              jobId: frame.data.jobId,
              action: 'answer',
              conversationId: 'bench',
              messageId: String(frame.data.jobId),
              entities: [],
              slot: { id: 'slot', type: 'text', code: 'chief_complaints', value: null },
            }),
          );
        }
      });
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.send(event(STATE_REQUESTS.activate, {}));
      return ws;
    }),
  );
  process.on('message', (command: TechniciansCommand) => {
    if (command.type === 'clock') {
      post({ type: 'clock', at: clock() });
      return;
    }
    if (command.type !== 'stop') {
      return;
    }
    clearInterval(timer);
    flush();
    for (const ws of sockets) {
      ws.close();
    }
    post({ type: 'stopped' });
  });
  post({ type: 'ready' });
}

if (process.send) {
  process.once('message', (command: TechniciansCommand) => {
    if (command.type === 'start') {
      main(command.data).catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
    }
  });
}
