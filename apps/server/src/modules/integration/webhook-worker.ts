import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.ts';
import { toOutboxEvent, type OutboxEventRow } from './outbox.ts';

/** The key of a Standard Webhooks secret: the base64 after `whsec_`. */
export function webhookKey(secret: string): Buffer {
  return Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` (Standard Webhooks). */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', webhookKey(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** Exponential backoff with equal jitter: half the step, plus up to half again at random. */
export function backoffMs(
  attempt: number,
  options: { baseMs: number; factor: number; capMs: number },
  random: () => number = Math.random,
): number {
  const step = Math.min(options.capMs, options.baseMs * options.factor ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

export interface WebhookWorkerOptions {
  readonly db: Database;
  readonly url: string;
  /** `whsec_…` */
  readonly secret: string;
  /** After this many failed attempts the delivery is dead (admins may redeliver). */
  readonly maxAttempts: number;
  /** How often to look for due deliveries. */
  readonly pollMs: number;
  readonly baseDelayMs?: number;
  readonly factor?: number;
  readonly maxDelayMs?: number;
  /** Per request. A claimed delivery is leased for twice this before another node may retry. */
  readonly timeoutMs?: number;
  readonly batchSize?: number;
  readonly log?: FastifyBaseLogger;
}

interface Claimed extends OutboxEventRow {
  attempts: number;
}

/**
 * Delivers the outbox to the assistant's webhook. Any number of nodes may run one: a claim takes
 * due rows with FOR UPDATE SKIP LOCKED and leases them by moving next_attempt_at forward, so no
 * delivery is attempted twice at once; the HTTP call happens outside any transaction.
 */
export class WebhookWorker {
  private readonly options: Required<Omit<WebhookWorkerOptions, 'log'>> &
    Pick<WebhookWorkerOptions, 'log'>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private again = false;

  constructor(options: WebhookWorkerOptions) {
    this.options = {
      baseDelayMs: 1000,
      factor: 2,
      maxDelayMs: 600_000,
      timeoutMs: 10_000,
      batchSize: 20,
      ...options,
    };
  }

  start(): void {
    if (!this.stopped) {
      return;
    }
    this.stopped = false;
    this.nudge();
  }

  /** Looks for due deliveries now (after a new event on this node) instead of at the next poll. */
  nudge(): void {
    if (this.stopped) {
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
      if (!this.stopped) {
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.nudge(), this.options.pollMs);
          this.timer.unref();
        }
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.running;
  }

  private async loop(): Promise<void> {
    try {
      // A full batch means more may be due: keep going until a short one.
      while (!this.stopped && (await this.runOnce()) >= this.options.batchSize) {
        // next batch
      }
    } catch (error) {
      this.options.log?.error({ err: error }, 'webhook delivery pass failed');
    }
  }

  /** One pass: claims due deliveries and attempts each; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((row) => this.deliver(row)));
    return claimed.length;
  }

  private async claim(): Promise<Claimed[]> {
    const { db, batchSize, timeoutMs } = this.options;
    const result = await sql<Claimed>`
      update webhook_deliveries d set
        attempts = d.attempts + 1,
        next_attempt_at = now() + make_interval(secs => ${(2 * timeoutMs) / 1000}),
        updated_at = now()
      from outbox_events e
      where e.id = d.event_id and d.event_id in (
        select event_id from webhook_deliveries
        where delivered_at is null and dead_at is null and next_attempt_at <= now()
        order by next_attempt_at
        for update skip locked
        limit ${batchSize}
      )
      returning e.*, d.attempts`.execute(db);
    return result.rows.sort((a, b) => a.cursor - b.cursor);
  }

  private async deliver(row: Claimed): Promise<void> {
    const { url, secret, timeoutMs } = this.options;
    const body = JSON.stringify(toOutboxEvent(row));
    const timestamp = Math.floor(Date.now() / 1000);
    let error: string | null = null;
    try {
      const response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Loopdesk-Webhooks/1',
          'webhook-id': row.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, row.id, timestamp, body),
        },
        body,
      });
      const text = await response.text().catch(() => '');
      if (response.status < 200 || response.status >= 300) {
        error = `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
      }
    } catch (caught) {
      const cause = caught instanceof Error && caught.cause instanceof Error ? caught.cause : null;
      error = cause?.message ?? (caught instanceof Error ? caught.message : String(caught));
    }
    await this.record(row, error).catch((caught: unknown) =>
      this.options.log?.error({ err: caught, eventId: row.id }, 'webhook delivery record failed'),
    );
  }

  private async record(row: Claimed, error: string | null): Promise<void> {
    const { db, maxAttempts } = this.options;
    const update = db
      .updateTable('webhook_deliveries')
      .where('event_id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .where('delivered_at', 'is', null)
      .where('dead_at', 'is', null);
    if (error === null) {
      await update
        .set({
          delivered_at: sql<Date>`now()`,
          next_attempt_at: null,
          last_error: null,
          updated_at: sql<Date>`now()`,
        })
        .execute();
      return;
    }
    if (row.attempts >= maxAttempts) {
      this.options.log?.warn(
        { eventId: row.id, attempts: row.attempts, error },
        'webhook delivery is dead: an admin may redeliver it',
      );
      await update
        .set({
          dead_at: sql<Date>`now()`,
          next_attempt_at: null,
          last_error: error,
          updated_at: sql<Date>`now()`,
        })
        .execute();
      return;
    }
    const delay = backoffMs(row.attempts, {
      baseMs: this.options.baseDelayMs,
      factor: this.options.factor,
      capMs: this.options.maxDelayMs,
    });
    await update
      .set({
        next_attempt_at: sql<Date>`now() + make_interval(secs => ${delay / 1000})`,
        last_error: error,
        updated_at: sql<Date>`now()`,
      })
      .execute();
  }
}
