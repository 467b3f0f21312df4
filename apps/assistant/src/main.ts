import { createApiCaller, createIntegrationClient } from './client.ts';
import { followFeed, MEMORIES, Outcomes, runConversation } from './conversation.ts';
import {
  demoRotation,
  firstPhase,
  nextPatient,
  type OpenConversation,
} from './patient-rotation.ts';
import { PATIENTS } from './patients.ts';
import { ConversationInbox, registerDirectory } from './handover.ts';
import { followRequests } from './requests.ts';
import { receiveClinicalNote, sendSummary } from './summaries.ts';
import { DemoPatients, registerMessagingPatients } from './messaging.ts';

/**
 * The demo assistant: a separate process that talks to Loopdesk only through the integration API.
 * It starts scripted patient intakes at a configurable rate and continues each conversation with
 * the technicians' results.
 */
const baseUrl = process.env.LOOPDESK_URL ?? 'http://localhost:8080';
const apiKey = process.env.LOOPDESK_API_KEY ?? '';
const perMinute = Number(process.env.ASSISTANT_CONVERSATIONS_PER_MINUTE ?? 2);
const maxOpen = Number(process.env.ASSISTANT_MAX_CONVERSATIONS ?? 3);
// Which scripted patients to run, by id (all by default), e.g. ASSISTANT_PATIENTS=headache.
const only = (process.env.ASSISTANT_PATIENTS ?? '')
  .split(',')
  .map((id) => id.trim())
  .filter((id) => id !== '');
const scripts = demoRotation(
  only.length === 0 ? PATIENTS : PATIENTS.filter((p) => only.includes(p.id)),
);

const log = (line: string) => process.stdout.write(`[assistant] ${line}\n`);

if (!/^ldk_/.test(apiKey)) {
  process.stderr.write(
    '[assistant] LOOPDESK_API_KEY must be an API key (npm run api-key -- create assistant).\n',
  );
  process.exit(1);
}
if (scripts.length === 0) {
  process.stderr.write(
    `[assistant] ASSISTANT_PATIENTS names no known patient: use some of ${PATIENTS.map((p) => p.id).join(', ')}.\n`,
  );
  process.exit(1);
}
if (!(perMinute > 0) || !(maxOpen > 0)) {
  process.stderr.write(
    '[assistant] ASSISTANT_CONVERSATIONS_PER_MINUTE and ASSISTANT_MAX_CONVERSATIONS must be positive numbers.\n',
  );
  process.exit(1);
}

const client = createIntegrationClient(baseUrl, apiKey);
const outcomes = new Outcomes();
// Manual replies, handbacks and ends of the exception desk, per conversation.
const inbox = new ConversationInbox();
// How long a simulated patient takes to answer a clinician's reply.
const replyDelayMs = Number(process.env.ASSISTANT_PATIENT_REPLY_MS ?? 1500);
const stop = new AbortController();
// Open conversations and what each waits for: annotators or the desk (see nextPatient).
const open = new Set<OpenConversation>();
let next = 0;

async function waitForServer(): Promise<void> {
  for (;;) {
    const ready = await fetch(`${baseUrl}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

await waitForServer();
// The clinic's physicians and tenant configurations, for the exception desk (issue 5).
await registerDirectory(client).catch((error: unknown) => log(`directory: ${String(error)}`));
// Direct messaging and push (issue 15): demo patients staff can message.
const call = createApiCaller(baseUrl, apiKey);
await registerMessagingPatients(call).then(
  () => log('messaging: demo patients registered'),
  (error: unknown) => log(`messaging: ${String(error)}`),
);
const demoPatients = new DemoPatients(call, { replyDelayMs, log });
log(`connected to ${baseUrl}; ${perMinute} conversations a minute, at most ${maxOpen} open`);
void followFeed(client, outcomes, {
  inbox,
  onEvent: (event) =>
    void demoPatients.handle(event).catch((error: unknown) => log(`messaging: ${String(error)}`)),
  pollMs: 1000,
  signal: stop.signal,
  onError: (error) => log(`feed: ${String(error)}`),
  onSettled: (job) => receiveClinicalNote(job, log),
});

// The portal's questions (context menus, memory, message operations), long-polled.
void followRequests(client, MEMORIES, {
  waitSeconds: 20,
  signal: stop.signal,
  onError: (error) => log(`requests: ${String(error)}`),
});

const timer = setInterval(() => {
  const picked = nextPatient(scripts, next, [...open], maxOpen);
  if (!picked) {
    return;
  }
  const { script } = picked;
  next = picked.next;
  const conversation: OpenConversation = { script, phase: firstPhase(script) };
  open.add(conversation);
  runConversation(client, outcomes, script, log, {
    inbox,
    replyDelayMs,
    onPhase: (phase) => {
      conversation.phase = phase;
    },
    onFinished: (intake) => sendSummary(client, intake, log),
  })
    .catch((error: unknown) => log(`${script.id}: ${String(error)}`))
    .finally(() => {
      open.delete(conversation);
    });
}, 60_000 / perMinute);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    clearInterval(timer);
    stop.abort();
    process.exit(0);
  });
}
