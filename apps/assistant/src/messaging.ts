import type { OutboxEvent } from '@loopdesk/contracts/integration.ts';
import {
  MessageSentData,
  type PatientReplyBody,
  type PutConsumerBody,
} from '@loopdesk/contracts/messaging.ts';
import {
  NotificationEventData,
  type NotificationReceiptBody,
} from '@loopdesk/contracts/notifications.ts';
import type { ApiCaller } from './client.ts';

/**
 * The demo assistant's side of direct messaging and push (issue 15): it registers demo patients
 * staff can message, delivers staff messages to them (from `message.sent` in the outbox), lets
 * each demo patient answer, and fans push notifications out to the demo patients' devices,
 * reporting the receipt back. Everything here is demo data: ids start with `demo-` and the emails
 * are at demo-patient.test.
 */

/** The demo patients of direct messaging: one device each. */
export const MESSAGING_PATIENTS: readonly (PutConsumerBody & { id: string })[] = [
  {
    id: 'demo-sam-rivera',
    tenant: 'acme-clinic',
    name: { given: 'Sam', family: 'Rivera' },
    email: 'sam.rivera@demo-patient.test',
  },
  {
    id: 'demo-jin-park',
    tenant: 'harbour-health',
    name: { given: 'Jin', family: 'Park' },
    email: 'jin.park@demo-patient.test',
  },
];

/** What a demo patient answers to a staff message. */
export function demoReply(given: string, staffMessage: string): string {
  const quoted = staffMessage.length > 60 ? `${staffMessage.slice(0, 57)}…` : staffMessage;
  return `Hi, this is ${given} (demo patient). Thanks for your message “${quoted}”. Got it, I will follow up.`;
}

/** Registers the demo patients (a safe retry). */
export async function registerMessagingPatients(call: ApiCaller): Promise<void> {
  for (const { id, ...body } of MESSAGING_PATIENTS) {
    await call('PUT', `/api/v1/consumers/${encodeURIComponent(id)}`, body);
  }
}

/** Hears messaging and push events of the outbox feed and plays the demo patients' side. */
export class DemoPatients {
  readonly #call: ApiCaller;
  readonly #replyDelayMs: number;
  readonly #log: (line: string) => void;
  /** Push notifications received, by id: devices reached (what the demo records). */
  readonly received = new Map<string, number>();

  constructor(call: ApiCaller, options: { replyDelayMs: number; log: (line: string) => void }) {
    this.#call = call;
    this.#replyDelayMs = options.replyDelayMs;
    this.#log = options.log;
  }

  /** Handles one event of the feed; other events are not its business. Resolves when done. */
  async handle(event: OutboxEvent): Promise<void> {
    if (event.type === 'message.sent') {
      await this.#answer(MessageSentData.parse(event.data));
    } else if (event.type === 'notification.broadcast' || event.type === 'notification.test') {
      await this.#fanOut(NotificationEventData.parse(event.data).notification);
    }
  }

  async #answer({ thread, message }: MessageSentData): Promise<void> {
    const patient = MESSAGING_PATIENTS.find((p) => p.id === thread.customerId);
    if (!patient) {
      return; // A real patient's app would show it; the demo answers only for its own patients.
    }
    await new Promise((resolve) => setTimeout(resolve, this.#replyDelayMs));
    const body: PatientReplyBody = {
      id: `reply-${message.id}`,
      content: demoReply(patient.name.given, message.content),
    };
    await this.#call('POST', `/api/v1/threads/${encodeURIComponent(thread.id)}/messages`, body);
    this.#log(`messaging: ${patient.name.given} answered in thread ${thread.id}`);
  }

  async #fanOut(notification: NotificationEventData['notification']): Promise<void> {
    const devices =
      notification.consumerId === null
        ? MESSAGING_PATIENTS.length
        : MESSAGING_PATIENTS.some((p) => p.id === notification.consumerId)
          ? 1
          : 0;
    this.received.set(notification.id, devices);
    const body: NotificationReceiptBody = { devices };
    await this.#call(
      'POST',
      `/api/v1/notifications/${encodeURIComponent(notification.id)}/receipt`,
      body,
    );
    this.#log(`push: “${notification.title}” reached ${devices} demo device(s)`);
  }
}
