import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { E2E_API_KEY } from './support/assistant.ts';
import { signInAs } from './support/sign-in.ts';

const headers = { authorization: `Bearer ${E2E_API_KEY}` };

interface FeedEvent {
  type: string;
  jobId: string | null;
  conversationId: string | null;
  data: Record<string, unknown>;
}

/** The outbox feed as the assistant reads it, from the start. */
async function feed(request: APIRequestContext): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  let after: string | undefined;
  for (;;) {
    const response = await request.get(
      `/api/v1/events?limit=500${after ? `&after=${after}` : ''}`,
      { headers },
    );
    const page = (await response.json()) as { events: FeedEvent[]; nextCursor: string };
    events.push(...page.events);
    if (page.events.length < 500) {
      return events;
    }
    after = page.nextCursor;
  }
}

/** The demo assistant as `npm start` runs it, with only the patient who asks for a human. */
function startAssistant(baseURL: string): ChildProcess {
  const root = path.resolve(import.meta.dirname, '..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/assistant/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      LOOPDESK_URL: baseURL,
      LOOPDESK_API_KEY: E2E_API_KEY,
      ASSISTANT_PATIENTS: 'ask-human',
      ASSISTANT_CONVERSATIONS_PER_MINUTE: '60',
      ASSISTANT_MAX_CONVERSATIONS: '1',
      ASSISTANT_PATIENT_REPLY_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(chunk));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return child;
}

async function openDesk(page: Page): Promise<void> {
  await signInAs(page, 'medical@loopdesk.test');
  await page.goto('/jobs/exception');
  await expect(page.getByText('Paused click resume to continue')).toBeVisible();
  await page.getByRole('button', { name: 'Resume' }).click();
}

const transcript = (page: Page) => page.getByRole('list', { name: 'Transcript' });

test('a medical reviewer takes over, replies, sees the patient answer, hands back and the assistant resumes', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // First, the demo assistant starts Noah's intake; he asks for a real person and is handed over.
  const assistant = startAssistant(baseURL ?? 'http://127.0.0.1:8097');
  try {
    // Second, Meera opens the Exception Jobs screen and resumes: Noah's conversation comes to her.
    await openDesk(page);
    const patient = page.getByRole('region', { name: 'Patient' });
    await expect(patient.getByRole('link', { name: 'Noah Williams' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(
      transcript(page).getByText("I'd rather talk to a real person, please."),
    ).toBeVisible();
    // The task for his message shows in the left pane, in the federated panel.
    await expect(page.getByText('Annotate chief complaint')).toBeVisible();

    // Third, she replies by hand; the simulated patient answers.
    const input = page.getByLabel('Manual input (USE WITH CAUTION)');
    await input.fill('Hi Noah, I am Meera, a nurse. What is bothering you?');
    await input.press('Enter');
    await expect(input).toHaveValue('');
    await expect(
      transcript(page).getByText('Hi Noah, I am Meera, a nurse. What is bothering you?'),
    ).toBeVisible();
    await expect(
      transcript(page).getByText(
        "It's a tight feeling in my chest since this morning. It comes and goes.",
      ),
    ).toBeVisible({ timeout: 15_000 });

    // Fourth, she hands the conversation back (it asks first): it leaves her screen.
    await page.getByRole('button', { name: 'Hand back to assistant' }).click();
    await page
      .getByRole('dialog', { name: 'Hand back to assistant' })
      .getByRole('button', { name: 'Hand back' })
      .click();
    await expect(page.getByText('Waiting for a conversation to be allocated.')).toBeVisible();

    // Fifth, the assistant resumes: it speaks again and sends its next intake question as a job.
    const events = await feed(request);
    const reply = events.find(
      (e) =>
        e.type === 'conversation.reply' &&
        (e.data.message as { content?: string }).content ===
          'Hi Noah, I am Meera, a nurse. What is bothering you?',
    );
    const conversationId = reply?.conversationId ?? '';
    expect(conversationId).not.toBe('');
    expect(
      events.some(
        (e) => e.type === 'conversation.handedback' && e.conversationId === conversationId,
      ),
    ).toBe(true);
    await expect
      .poll(
        async () => {
          const conversation = (await (
            await request.get(`/api/v1/conversations/${conversationId}`, { headers })
          ).json()) as { holder: { kind: string }; messages: number };
          const onset = (await feed(request)).find(
            (e) =>
              e.type === 'job.created' &&
              (e.data.job as { queue?: string }).queue === 'federated' &&
              (
                e.data.job as {
                  data?: { metadata?: { xdhconvid?: string }; slot?: { code?: string } };
                }
              ).data?.metadata?.xdhconvid === conversationId,
          );
          return { holder: conversation.holder.kind, resumed: onset?.jobId ?? null };
        },
        { timeout: 20_000 },
      )
      .toMatchObject({ holder: 'bot', resumed: expect.any(String) });
    // The next question is the assistant's again, after the handback.
    const resumedJob = (await feed(request)).find(
      (e) =>
        e.type === 'job.created' &&
        (e.data.job as { queue?: string }).queue === 'federated' &&
        (e.data.job as { data?: { metadata?: { xdhconvid?: string } } }).data?.metadata
          ?.xdhconvid === conversationId,
    );
    expect(
      (resumedJob?.data.job as { data: { quinnLastTurn: { content: string } } }).data.quinnLastTurn
        .content,
    ).toMatch(/^When did the .* start\?$/);
    // Its job leaves the federated queue for the tests that follow.
    await request.post(`/api/v1/jobs/${resumedJob?.jobId ?? ''}/cancel`, { headers });
    // Once Noah is back with it, the assistant may start a second intake of the same patient and
    // hand it over to Meera too: stop the assistant, then end whatever is left on her desk, so that
    // the tests that follow start with an empty queue.
    assistant.kill('SIGTERM');
    await endEveryConversation(page);
  } finally {
    assistant.kill('SIGTERM');
  }
});

/** Terminates every conversation on the reviewer's rail, one after another. */
async function endEveryConversation(page: Page): Promise<void> {
  const rail = page.getByRole('navigation', { name: 'Conversations' }).getByRole('button');
  const patient = page.getByRole('region', { name: 'Patient' });
  // A handover sent just before the assistant stopped still reaches the desk.
  await page.waitForTimeout(1_000);
  for (let left = await rail.count(); left > 0; left = await rail.count()) {
    await rail.first().click();
    await patient.getByRole('button', { name: 'Terminate encounter' }).click();
    await page
      .getByRole('dialog', { name: 'Terminate encounter' })
      .getByRole('button', { name: 'Terminate' })
      .click();
    await expect(rail).toHaveCount(left - 1);
  }
}

test('a medical reviewer ends a conversation with an appointment, and the appointment is stored', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // The assistant registers Ivy's conversation, a physician, and hands Ivy over.
  const id = `e2e-appointment-${Date.now()}`;
  const put = await request.put(`/api/v1/conversations/${id}`, {
    headers,
    data: {
      tenant: 'acme-clinic',
      consumer: { id: `patient-${id}`, name: { given: 'Ivy', family: 'Appleton' } },
    },
  });
  expect(put.status()).toBe(201);
  await request.put('/api/v1/physicians/dr-e2e-harlow', {
    headers,
    data: { firstName: 'Ines', lastName: 'Harlow' },
  });
  for (const [messageId, direction, content] of [
    ['m1', 'OUT', 'What brings you in today?'],
    ['m2', 'IN', 'I need to see a doctor about my knee.'],
  ] as const) {
    await request.post(`/api/v1/conversations/${id}/messages`, {
      headers,
      data: { id: messageId, direction, content },
    });
  }
  const handover = await request.post(`/api/v1/conversations/${id}/handover`, {
    headers,
    data: { reason: 'The patient wants an appointment' },
  });
  expect(handover.status()).toBe(200);

  // Meera takes it, and ends it with an appointment.
  await openDesk(page);
  const avatar = page.getByRole('button', { name: /^Ivy Appleton/ });
  await expect(avatar).toBeVisible({ timeout: 30_000 });
  await avatar.click();
  const patient = page.getByRole('region', { name: 'Patient' });
  await expect(patient.getByRole('heading', { name: 'Ivy Appleton' })).toBeVisible();
  await expect(transcript(page).getByText('I need to see a doctor about my knee.')).toBeVisible();
  await patient.getByRole('button', { name: 'End and schedule appointment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule an appointment for Ivy Appleton' });
  await dialog.getByRole('combobox', { name: 'Appointment type' }).click();
  await page.getByRole('option', { name: 'Post HPI' }).click();
  // Next year's 14 September: ahead, and still standard time in Auckland (UTC+12).
  const year = new Date().getUTCFullYear() + 1;
  await dialog.getByLabel('Date and time').fill(`${year}-09-14T10:45`);
  await dialog.getByLabel('Duration (minutes)').fill('30');
  await dialog.getByRole('combobox', { name: 'Timezone' }).click();
  await page.getByRole('option', { name: 'Pacific/Auckland' }).click();
  await dialog.getByRole('combobox', { name: 'Physician' }).click();
  await page.getByRole('option', { name: 'Ines Harlow' }).click();
  // Without the notes nothing is sent.
  await dialog.getByRole('button', { name: 'Schedule and end' }).click();
  await expect(dialog.getByText('This field is required.')).toHaveCount(2);
  await dialog.getByLabel(/Appointment note/).fill('Knee pain after a fall last week.');
  await dialog.getByLabel(/Consumer note/).fill('Dr Harlow will see you about your knee.');
  await dialog.getByRole('button', { name: 'Schedule and end' }).click();
  await expect(page.getByText('Success the appointment has been scheduled.')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Ivy Appleton/ })).toBeHidden();

  // The appointment is stored: the reviewer's appointments summary lists it …
  const refreshed = await page.request.post('/auth/refresh', { data: {} });
  const { accessToken } = (await refreshed.json()) as { accessToken: string };
  const summary = (await (
    await page.request.get(`/internal/experiment/appointments/_summary?conversationId=${id}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
  ).json()) as { total: number; items: Record<string, unknown>[] };
  expect(summary.total).toBe(1);
  expect(summary.items[0]).toMatchObject({
    type: 'HPI',
    fromDateTime: `${year}-09-14T10:45`,
    duration: 30,
    timezone: 'Pacific/Auckland',
    // 10:45 in Auckland in September (NZST, UTC+12).
    startsAt: `${year}-09-13T22:45:00.000Z`,
    staffId: 'dr-e2e-harlow',
    staffFirstName: 'Ines',
    staffLastName: 'Harlow',
    conversationId: id,
    consumerNote: 'Dr Harlow will see you about your knee.',
    appointmentNote: 'Knee pain after a fall last week.',
    createdBy: 'medical@loopdesk.test',
  });
  // … and the assistant hears of the end, with the appointment.
  const ended = (await feed(request)).find(
    (e) => e.type === 'conversation.ended' && e.conversationId === id,
  );
  expect(ended?.data).toMatchObject({
    endType: 'END',
    appointment: { id: summary.items[0]?.id, fromDateTime: `${year}-09-14T10:45` },
  });
});

test('a reviewer holding two conversations: badges, the next one comes on screen when one ends, Pause clears everything', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const api = {
    put: (id: string, given: string, family: string) =>
      request.put(`/api/v1/conversations/${id}`, {
        headers,
        data: { tenant: 'acme-clinic', consumer: { id: `patient-${id}`, name: { given, family } } },
      }),
    say: (id: string, messageId: string, direction: 'IN' | 'OUT', content: string) =>
      request.post(`/api/v1/conversations/${id}/messages`, {
        headers,
        data: { id: messageId, direction, content },
      }),
    handover: (id: string) =>
      request.post(`/api/v1/conversations/${id}/handover`, {
        headers,
        data: { reason: 'The patient asked for a human' },
      }),
    conversation: async (id: string) =>
      (await (await request.get(`/api/v1/conversations/${id}`, { headers })).json()) as {
        holder: { kind: string };
        status: string;
        endType: string | null;
      },
  };
  // The assistant hands over Ruth, then Omar.
  const stamp = Date.now();
  const ruth = `e2e-ruth-${stamp}`;
  const omar = `e2e-omar-${stamp}`;
  for (const [id, given, family, words] of [
    [ruth, 'Ruth', 'Baker', 'Can I speak to a nurse?'],
    [omar, 'Omar', 'Haddad', 'I want a person, not a bot.'],
  ] as const) {
    expect((await api.put(id, given, family)).status()).toBe(201);
    await api.say(id, `${id}-1`, 'IN', words);
    expect((await api.handover(id)).status()).toBe(200);
  }

  // Meera resumes: both come to her, Ruth (the first) on screen, Omar unread beside.
  await openDesk(page);
  const patient = page.getByRole('region', { name: 'Patient' });
  await expect(patient.getByRole('heading', { name: 'Ruth Baker' })).toBeVisible({
    timeout: 30_000,
  });
  const ruthAvatar = page.getByRole('button', { name: /^Ruth Baker/ });
  await expect(ruthAvatar).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('button', { name: 'Omar Haddad (unread)' })).toBeVisible();

  // She looks at Omar (now read), goes back to Ruth; Omar writes and is unread again.
  await page.getByRole('button', { name: 'Omar Haddad (unread)' }).click();
  await expect(transcript(page).getByText('I want a person, not a bot.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Omar Haddad', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await ruthAvatar.click();
  await expect(transcript(page).getByText('Can I speak to a nurse?')).toBeVisible();
  await api.say(omar, `${omar}-2`, 'IN', 'Hello? Is anyone there?');
  await expect(page.getByRole('button', { name: 'Omar Haddad (unread)' })).toBeVisible();

  // Terminate asks first; Cancel keeps Ruth, Terminate ends her encounter.
  await patient.getByRole('button', { name: 'Terminate encounter' }).click();
  const confirm = page.getByRole('dialog', { name: 'Terminate encounter' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(patient.getByRole('heading', { name: 'Ruth Baker' })).toBeVisible();
  await patient.getByRole('button', { name: 'Terminate encounter' }).click();
  await confirm.getByRole('button', { name: 'Terminate' }).click();
  // Omar, who wrote, comes on screen at once: nobody waits behind an empty screen.
  await expect(patient.getByRole('heading', { name: 'Omar Haddad' })).toBeVisible();
  await expect(transcript(page).getByText('Hello? Is anyone there?')).toBeVisible();
  await expect(ruthAvatar).toBeHidden();
  expect(await api.conversation(ruth)).toMatchObject({ status: 'ended', endType: 'TERMINATE' });

  // A reply by the button.
  await page.getByLabel('Manual input (USE WITH CAUTION)').fill('Yes Omar, I am here.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(transcript(page).getByText('Yes Omar, I am here.')).toBeVisible();

  // Pause clears everything; Omar waits in the queue for the next reviewer.
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('Paused click resume to continue')).toBeVisible();
  await expect(patient).toBeHidden();
  await expect(page.getByRole('button', { name: /^Omar Haddad/ })).toBeHidden();
  await expect.poll(async () => (await api.conversation(omar)).holder.kind).toBe('queue');

  // Resuming brings him back with his transcript; terminating leaves the queue empty.
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(patient.getByRole('heading', { name: 'Omar Haddad' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(transcript(page).getByText('Yes Omar, I am here.')).toBeVisible();
  await patient.getByRole('button', { name: 'Terminate encounter' }).click();
  await confirm.getByRole('button', { name: 'Terminate' }).click();
  await expect(page.getByText('Waiting for a conversation to be allocated.')).toBeVisible();
  expect(await api.conversation(omar)).toMatchObject({ status: 'ended', holder: { kind: 'bot' } });
});

test('an exception task on the complete slot is completed only by ticking its box', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // The assistant hands Lena over, then asks the reviewer to confirm the exception is complete
  // (the demo assistant does so once a patient's scripted answers are all given).
  const id = `e2e-complete-${Date.now()}`;
  const put = await request.put(`/api/v1/conversations/${id}`, {
    headers,
    data: {
      tenant: 'acme-clinic',
      consumer: { id: `patient-${id}`, name: { given: 'Lena', family: 'Moretti' } },
    },
  });
  expect(put.status()).toBe(201);
  await request.post(`/api/v1/conversations/${id}/messages`, {
    headers,
    data: { id: `${id}-1`, direction: 'IN', content: 'Thanks, that answers my question.' },
  });
  expect(
    (
      await request.post(`/api/v1/conversations/${id}/handover`, {
        headers,
        data: { reason: 'The patient asked for a human' },
      })
    ).status(),
  ).toBe(200);

  await openDesk(page);
  const patient = page.getByRole('region', { name: 'Patient' });
  await expect(patient.getByRole('heading', { name: 'Lena Moretti' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('Waiting for next message...')).toBeVisible();
  const created = await request.post('/api/v1/jobs', {
    headers: { ...headers, 'idempotency-key': `${id}:complete` },
    data: {
      queue: 'exceptions',
      type: 'exception.job',
      tenant: 'acme-clinic',
      data: {
        conversationId: id,
        lastTurn: {
          content: 'Thanks, that answers my question.',
          messageId: `${id}-1`,
          metadata: { conversationId: id, entities: [] },
        },
        slotSpecification: {
          code: 'complete',
          short_description: 'Exception complete',
          data_type: 'boolean',
        },
        slot: { id: 'slot-complete', code: 'complete' },
        job: { purpose: 'full' },
      },
    },
  });
  expect(created.status()).toBe(201);
  const job = (await created.json()) as { id: string; state: string };
  expect(job.state).toBe('assigned');

  // The task shows in the left pane; submitting without the box says why and sends nothing.
  const task = page.getByRole('region', { name: 'Complete the exception' });
  await expect(task.getByText('Exception complete')).toBeVisible();
  await task.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Can only complete by checking the box.')).toBeVisible();
  const stillOpen = (await (await request.get(`/api/v1/jobs/${job.id}`, { headers })).json()) as {
    state: string;
  };
  expect(stillOpen.state).toBe('assigned');

  // Ticking the box and submitting completes it; the left pane waits for the next message.
  await task.getByRole('checkbox', { name: 'Complete' }).check();
  await task.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Waiting for next message...')).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/v1/jobs/${job.id}`, { headers })).json()) as {
            state: string;
          }
        ).state,
    )
    .toBe('completed');
  const completed = (await feed(request)).find(
    (e) => e.type === 'job.completed' && e.jobId === job.id,
  );
  expect(completed).toBeDefined();

  // The conversation stays with her until she ends it.
  await patient.getByRole('button', { name: 'Terminate encounter' }).click();
  await page
    .getByRole('dialog', { name: 'Terminate encounter' })
    .getByRole('button', { name: 'Terminate' })
    .click();
  // Her conversation leaves the desk; another handed-over conversation still waiting from an
  // earlier test or the demo assistant may be allocated in its place at once.
  await expect(page.getByRole('heading', { name: 'Lena Moretti' })).toBeHidden();
});
