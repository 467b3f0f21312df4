import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

const b64 = (value: string) => Buffer.from(value).toString('base64');

describe('user management API', () => {
  let t: TestApp;
  let admin: string;
  let annotator: string;
  let bobId: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    const bob = await tokenForRoles(t, 'bob@example.test', ['annotator']);
    annotator = bob.token;
    bobId = bob.userId;
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  it('an admin reads a user by the base64 of their id or email', async () => {
    for (const key of [bobId, 'bob@example.test']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/internal/users/${b64(key)}`,
        headers: as(admin),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        uid: bobId,
        email: 'bob@example.test',
        displayName: 'bob@example.test',
        photoUrl: null,
        customClaims: { roles: ['annotator'] },
      });
    }
  });

  it('an unknown user is a 404 that names the key', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/internal/users/${b64('nobody@example.test')}`,
      headers: as(admin),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'Not Found',
      message: "No user with the id or email 'nobody@example.test'.",
    });
  });

  it('an admin replaces the roles, and the change is audited', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/internal/users/${b64(bobId)}`,
      headers: as(admin),
      payload: { permissions: { roles: ['annotator', 'medical'] } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().customClaims.roles).toEqual(['annotator', 'medical']);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'users.roles.update')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_email: 'ada@example.test',
      resource_id: bobId,
      outcome: 'success',
    });
  });

  it('a body with an unknown role is a 400 naming the field, and changes nothing', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/internal/users/${b64(bobId)}`,
      headers: as(admin),
      payload: { permissions: { roles: ['root'] } },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe('Bad Request');
    expect(body.details[0].path).toBe('body.permissions.roles.0');
    const after = await t.app.inject({
      method: 'GET',
      url: `/internal/users/${b64(bobId)}`,
      headers: as(admin),
    });
    expect(after.json().customClaims.roles).toEqual(['annotator', 'medical']);
  });

  it('a body that is not JSON is a 400, one of another type a 415; one over the size limit is a 413', async () => {
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/internal/users/${b64(bobId)}`,
      headers: { ...as(admin), 'content-type': 'application/json' },
      payload: '{"permissions":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'Bad Request', message: expect.any(String) });
    const form = await t.app.inject({
      method: 'PATCH',
      url: `/internal/users/${b64(bobId)}`,
      headers: { ...as(admin), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'roles=admin',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toEqual({
      error: 'Unsupported Media Type',
      message:
        "Unsupported Content-Type 'application/x-www-form-urlencoded': send the body as application/json.",
      details: [{ path: 'headers.content-type', message: 'must be application/json' }],
    });
    const huge = await t.app.inject({
      method: 'PATCH',
      url: `/internal/users/${b64(bobId)}`,
      headers: { ...as(admin), 'content-type': 'application/json' },
      payload: JSON.stringify({ permissions: { roles: [] }, padding: 'x'.repeat(2_000_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({
      error: 'Payload Too Large',
      message: expect.stringMatching(/limit/),
    });
  });

  it('an annotator cannot read or change users (403, audited)', async () => {
    // Bob's roles changed above: a token with his roles now.
    annotator = (await tokenForRoles(t, 'bob@example.test', ['annotator', 'medical'])).token;
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/internal/users/${b64(bobId)}`,
      headers: as(annotator),
      payload: { permissions: { roles: ['admin'] } },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(
      'You do not have access to this: it needs the privilege users:permissions:update. Ask an administrator for the matching role.',
    );
    const refused = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'request.refused')
      .where('status_code', '=', 403)
      .execute();
    expect(refused.some((r) => r.actor_email === 'bob@example.test')).toBe(true);
  });

  it('the audit trail is append-only: the application cannot update or delete it', async () => {
    await expect(
      t.database.db.updateTable('audit_events').set({ action: 'tampered' }).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(t.database.db.deleteFrom('audit_events').execute()).rejects.toThrow(/append-only/);
  });
});
