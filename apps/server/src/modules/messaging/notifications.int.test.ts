import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_MIN_CHARS } from '@loopdesk/contracts/notifications.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { feedCaughtUp } from '../../test/outbox.ts';
import { apiKeyFor, tokenForRoles } from '../../test/tokens.ts';

interface FeedEvent {
  type: string;
  data: { notification?: { id: string; kind: string; consumerId: string | null; title: string } };
}

const announcement = (title = 'Clinic closed on Friday') => ({
  type: 'PUSH_NOTIFICATION',
  pushNotificationOptions: {
    purpose: 'announcement',
    title,
    content: 'The clinic is closed this Friday for staff training.',
    data: { link: 'https://clinic.example/news' },
  },
});

describe('push notifications', () => {
  let t: TestApp;
  let key: string;
  let medical: string;
  let annotator: string;

  beforeAll(async () => {
    // Two broadcasts an hour and two tests: the limit is easy to reach.
    t = await startTestApp({ env: { PUSH_BROADCASTS_PER_HOUR: '2', PUSH_TESTS_PER_HOUR: '2' } });
    medical = (await tokenForRoles(t, 'meera@example.test', ['medical'])).token;
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    key = await apiKeyFor(t);
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/consumers/demo-sam',
      headers: { authorization: `Bearer ${key}` },
      payload: { tenant: 'acme-clinic', name: { given: 'Sam' }, email: 'sam@patients.test' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (url: string, payload: unknown, token = medical) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload: payload as Record<string, unknown>,
    });
  const feed = async (): Promise<FeedEvent[]> => {
    await feedCaughtUp(t.database.db);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/events?limit=500',
      headers: { authorization: `Bearer ${key}` },
    });
    return response.json().events as FeedEvent[];
  };
  const audits = (action: string) =>
    t.database.db.selectFrom('audit_events').selectAll().where('action', '=', action).execute();
  const count = async () =>
    (await t.database.db.selectFrom('push_notifications').selectAll().execute()).length;

  it('queues a broadcast as an outbox event the assistant fans out and acknowledges; the limit per hour answers 429', async () => {
    const first = await post('/internal/notifications/_broadcast', announcement());
    expect(first.statusCode, first.body).toBe(202);
    const { id } = first.json();
    const event = (await feed()).find((e) => e.type === 'notification.broadcast');
    expect(event?.data.notification).toMatchObject({
      id,
      kind: 'broadcast',
      consumerId: null,
      title: 'Clinic closed on Friday',
    });

    // The assistant reports the devices it reached.
    const receipt = await t.app.inject({
      method: 'POST',
      url: `/api/v1/notifications/${id}/receipt`,
      headers: { authorization: `Bearer ${key}` },
      payload: { devices: 2 },
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json().devices).toBe(2);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/v1/notifications/00000000-0000-4000-8000-000000000000/receipt',
      headers: { authorization: `Bearer ${key}` },
      payload: { devices: 1 },
    });
    expect(unknown.statusCode).toBe(404);

    expect(
      (await post('/internal/notifications/_broadcast', announcement('Second announcement')))
        .statusCode,
    ).toBe(202);
    const over = await post(
      '/internal/notifications/_broadcast',
      announcement('Third announcement'),
    );
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(
      /^At most 2 push broadcasts an hour: the next one can be queued in \d+ minutes?\. Nothing was sent\.$/,
    );
    expect(await count()).toBe(2);
    expect((await audits('push.broadcast')).map((row) => row.outcome)).toEqual([
      'success',
      'success',
      'denied',
    ]);
    expect(await audits('push.receipt')).toHaveLength(1);
  });

  it('refuses a title or content under 10 characters and changes nothing', async () => {
    const before = await count();
    const short = await post('/internal/notifications/_broadcast', announcement('Closed'));
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain(`must be at least ${PUSH_MIN_CHARS} characters`);
    expect(await count()).toBe(before);
  });

  it('sends a test to one patient, refuses an unknown one, and limits tests per user', async () => {
    const test = await post('/internal/consumers/demo-sam/communications/_test', {
      medium: 'push',
    });
    expect(test.statusCode, test.body).toBe(202);
    const event = (await feed()).find((e) => e.type === 'notification.test');
    expect(event?.data.notification).toMatchObject({ kind: 'test', consumerId: 'demo-sam' });
    const unknown = await post('/internal/consumers/nobody/communications/_test', {
      medium: 'push',
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (await post('/internal/consumers/demo-sam/communications/_test', { medium: 'sms' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await post('/internal/consumers/demo-sam/communications/_test', {
          medium: 'push',
          pushNotificationOptions: announcement().pushNotificationOptions,
        })
      ).statusCode,
    ).toBe(202);
    const over = await post('/internal/consumers/demo-sam/communications/_test', {
      medium: 'push',
    });
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/^At most 2 test pushes an hour/);
    expect((await audits('push.test')).map((row) => row.outcome)).toEqual([
      'success',
      'denied',
      'success',
      'denied',
    ]);
  });

  it('needs patient:communication:all', async () => {
    expect(
      (await post('/internal/notifications/_broadcast', announcement(), annotator)).statusCode,
    ).toBe(403);
    expect(
      (
        await post(
          '/internal/consumers/demo-sam/communications/_test',
          { medium: 'push' },
          annotator,
        )
      ).statusCode,
    ).toBe(403);
  });
});
