import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeepLink } from '@loopdesk/contracts/deep-links.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { apiKeyFor, tokenForRoles } from '../../test/tokens.ts';
import { deepLinkKey, signDeepLink } from './signature.ts';

describe('telehealth deep links', () => {
  let t: TestApp;
  let key: string;
  let medical: string;
  let annotator: string;
  let appointmentId: string;

  beforeAll(async () => {
    t = await startTestApp();
    medical = (await tokenForRoles(t, 'meera@example.test', ['medical'])).token;
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    key = await apiKeyFor(t);
    const db = t.database.db;
    await db
      .insertInto('consumers')
      .values({
        id: 'demo-ivy',
        tenant: 'acme-clinic',
        given_name: 'Ivy',
        family_name: 'Chen',
        external_references: '[]',
      })
      .execute();
    await db
      .insertInto('conversations')
      .values({ id: 'conv-ivy', tenant: 'acme-clinic', consumer_id: 'demo-ivy' })
      .execute();
    await db
      .insertInto('physicians')
      .values({ id: 'dr-1', first_name: 'Ana', last_name: 'Ruiz' })
      .execute();
    appointmentId = (
      await db
        .insertInto('appointments')
        .values({
          type: 'GENERAL',
          from_date_time: '2026-12-01T09:00',
          duration: 15,
          timezone: 'America/Los_Angeles',
          starts_at: '2026-12-01T17:00:00Z',
          conversation_id: 'conv-ivy',
          consumer_id: 'demo-ivy',
          consumer_email: null,
          staff_id: 'dr-1',
          staff_first_name: 'Ana',
          staff_last_name: 'Ruiz',
          consumer_note: 'Video visit',
          appointment_note: 'Follow-up',
          created_by: null,
          created_by_email: 'meera@example.test',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (payload: Record<string, unknown>, token = medical) =>
    t.app.inject({
      method: 'POST',
      url: '/internal/deep-links',
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
  const verify = (token: string, purpose = 'telehealth.appointment') =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/deep-links/_verify',
      headers: { authorization: `Bearer ${key}` },
      payload: { token, purpose },
    });
  const audits = (action: string) =>
    t.database.db.selectFrom('audit_events').selectAll().where('action', '=', action).execute();

  it('signs a link to an appointment that the patient app verifies, for its purpose only', async () => {
    const made = await create({
      purpose: 'telehealth.appointment',
      appointmentId,
      expiresInMinutes: 60,
    });
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json();
    expect(link).toMatchObject({
      purpose: 'telehealth.appointment',
      patient: 'demo-ivy',
      subject: appointmentId,
    });
    expect(link.url).toBe(
      `${t.config.publicUrl}/telehealth/join?token=${encodeURIComponent(link.token)}`,
    );
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);

    const checked = await verify(link.token);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({ linkId: link.linkId, subject: appointmentId });

    // Single purpose: the same link does not open a conversation.
    const other = await verify(link.token, 'telehealth.conversation');
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toMatch(/opens a telehealth.appointment, not what was asked/);

    // Where the link lands: a page that says it is valid.
    const page = await t.app.inject({
      method: 'GET',
      url: new URL(link.url).pathname + new URL(link.url).search,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your telehealth link is valid');

    expect((await audits('deep-link.create')).map((r) => r.actor_email)).toEqual([
      'meera@example.test',
    ]);
  });

  it('refuses a tampered, forged, expired or broken link with a clear error', async () => {
    const link = (
      await create({
        purpose: 'telehealth.conversation',
        conversationId: 'conv-ivy',
        expiresInMinutes: 5,
      })
    ).json<DeepLink>();
    const [version = '', payload = '', signature = ''] = link.token.split('.');
    // Change the patient in the payload and keep the signature.
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    changed.u = 'someone-else';
    const tampered = `${version}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
    const refused = await verify(tampered, 'telehealth.conversation');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/has been changed or was not made by Loopdesk/);

    // Signed with another key.
    const forged = signDeepLink(Buffer.from('another secret of at least 32 characters!!'), {
      purpose: 'telehealth.conversation',
      patient: 'demo-ivy',
      subject: 'conv-ivy',
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await verify(forged.token, 'telehealth.conversation')).statusCode).toBe(403);

    // Expired: signed with the server's key an hour ago.
    const expired = signDeepLink(deepLinkKey(undefined, t.config.sessionSecret), {
      purpose: 'telehealth.conversation',
      patient: 'demo-ivy',
      subject: 'conv-ivy',
      expiresAt: new Date(Date.now() - 60_000),
    });
    const late = await verify(expired.token, 'telehealth.conversation');
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toMatch(/^This link expired at .*Ask the clinic for a new one\.$/);

    const broken = await verify('not-a-link', 'telehealth.conversation');
    expect(broken.statusCode).toBe(400);
    const page = await t.app.inject({
      method: 'GET',
      url: `/telehealth/join?token=${encodeURIComponent(tampered)}`,
    });
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('This link cannot be used');

    const denied = (await audits('deep-link.verify')).filter((r) => r.outcome === 'denied');
    expect(denied.length).toBeGreaterThanOrEqual(5);
  });

  it('says what is missing or unknown, and needs patient:appointments:create', async () => {
    const missing = await create({ purpose: 'telehealth.appointment', expiresInMinutes: 60 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/appointmentId is required for an appointment link/);
    const tooLong = await create({
      purpose: 'telehealth.conversation',
      conversationId: 'conv-ivy',
      expiresInMinutes: 99_999,
    });
    expect(tooLong.statusCode).toBe(400);
    const unknown = await create({
      purpose: 'telehealth.appointment',
      appointmentId: '00000000-0000-4000-8000-000000000000',
      expiresInMinutes: 60,
    });
    expect(unknown.statusCode).toBe(404);
    const noConversation = await create({
      purpose: 'telehealth.conversation',
      conversationId: 'nope',
      expiresInMinutes: 60,
    });
    expect(noConversation.statusCode).toBe(404);
    expect(
      (
        await create(
          { purpose: 'telehealth.conversation', conversationId: 'conv-ivy', expiresInMinutes: 60 },
          annotator,
        )
      ).statusCode,
    ).toBe(403);
    const noKey = await t.app.inject({
      method: 'POST',
      url: '/api/v1/deep-links/_verify',
      payload: {},
    });
    expect(noKey.statusCode).toBe(401);
  });
});
