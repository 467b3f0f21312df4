import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CLOSE_CODE } from '@loopdesk/contracts/realtime.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { openSocket } from '../../test/socket-client.ts';
import { ROLES_CHANGED_MESSAGE } from '../../platform/auth/guard.ts';
import { LAST_ADMINISTRATOR_MESSAGE } from './service.ts';

const b64 = (value: string) => Buffer.from(value).toString('base64');

describe('user management: the list, the last administrator, roles that take effect at once', () => {
  let t: TestApp;
  let ada: { token: string; userId: string };
  let cleo: { token: string; userId: string };

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    // Without the development sign-in's demo accounts: these tests count users and administrators.
    await t.database.db.deleteFrom('users').where('email', 'like', '%@loopdesk.test').execute();
    ada = await tokenForRoles(t, 'ada@example.test', ['admin']);
    cleo = await tokenForRoles(t, 'cleo@example.test', ['annotator']);
    await tokenForRoles(t, 'dan@other.test', ['medical']);
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const patch = (token: string, key: string, roles: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/internal/users/${b64(key)}`,
      headers: as(token),
      payload: { permissions: { roles } },
    });
  const auditOf = (userId: string) =>
    t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'users.roles.update')
      .where('resource_id', '=', userId)
      .orderBy('id')
      .execute();

  it('lists every user with roles and last sign-in, paged and searched', async () => {
    const all = await t.app.inject({
      method: 'GET',
      url: '/internal/users?s=2',
      headers: as(ada.token),
    });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 3, page: 0, size: 2 });
    const { items } = all.json<{ items: { email: string }[] }>();
    expect(items.map((u) => u.email)).toEqual(['ada@example.test', 'cleo@example.test']);
    const second = await t.app.inject({
      method: 'GET',
      url: '/internal/users?s=2&p=1',
      headers: as(ada.token),
    });
    expect(second.json().items).toEqual([
      expect.objectContaining({
        email: 'dan@other.test',
        customClaims: { roles: ['medical'] },
        lastSignInAt: expect.any(String),
      }),
    ]);
    const found = await t.app.inject({
      method: 'GET',
      url: '/internal/users?q=OTHER.test',
      headers: as(ada.token),
    });
    expect(found.json()).toMatchObject({ total: 1, items: [{ email: 'dan@other.test' }] });
    const byId = await t.app.inject({
      method: 'GET',
      url: `/internal/users?q=${cleo.userId}`,
      headers: as(ada.token),
    });
    expect(byId.json()).toMatchObject({ total: 1, items: [{ uid: cleo.userId }] });
    // A wildcard typed by the user is a character, not a pattern.
    const percent = await t.app.inject({
      method: 'GET',
      url: '/internal/users?q=%25',
      headers: as(ada.token),
    });
    expect(percent.json().total).toBe(0);
  });

  it('a bad page or size is a 400 naming the field; an annotator may not list (403)', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: '/internal/users?s=500',
      headers: as(ada.token),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toEqual({
      path: 'querystring.s',
      message: 'must be at most 100',
    });
    const negative = await t.app.inject({
      method: 'GET',
      url: '/internal/users?p=-1',
      headers: as(ada.token),
    });
    expect(negative.statusCode).toBe(400);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/internal/users',
      headers: as(cleo.token),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('a role that does not exist or an unknown user changes nothing', async () => {
    const unknownRole = await patch(ada.token, cleo.userId, ['annotator', 'superuser']);
    expect(unknownRole.statusCode).toBe(400);
    expect(unknownRole.json().details[0].path).toBe('body.permissions.roles.1');
    const nobody = await patch(ada.token, 'nobody@example.test', ['medical']);
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().message).toBe("No user with the id or email 'nobody@example.test'.");
    const notBase64 = await t.app.inject({
      method: 'PATCH',
      url: '/internal/users/%21%21',
      headers: as(ada.token),
      payload: { permissions: { roles: ['medical'] } },
    });
    expect(notBase64.statusCode).toBe(400);
    expect(notBase64.json().details).toEqual([{ path: 'params.userId', message: 'is not base64' }]);
    expect(await auditOf(cleo.userId)).toEqual([]);
  });

  it('nobody can remove the last administrator (409, audited as denied); with two, one may go', async () => {
    const self = await patch(ada.token, ada.userId, ['medical']);
    expect(self.statusCode).toBe(409);
    expect(self.json()).toEqual({ error: 'Conflict', message: LAST_ADMINISTRATOR_MESSAGE });
    const denied = await auditOf(ada.userId);
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ outcome: 'denied', status_code: 409 });
    expect(denied[0]?.details).toMatchObject({ before: ['admin'], after: ['admin'] });

    // Cleo becomes an administrator too; then Ada may lose the role, and Cleo may not.
    const promoted = await patch(ada.token, cleo.userId, ['annotator', 'admin']);
    expect(promoted.statusCode).toBe(200);
    const cleoToken = (await tokenForRoles(t, 'cleo@example.test', ['annotator', 'admin'])).token;
    expect((await patch(cleoToken, ada.userId, ['medical'])).statusCode).toBe(200);
    expect((await patch(cleoToken, cleo.userId, ['annotator'])).statusCode).toBe(409);
    const trail = await auditOf(cleo.userId);
    expect(trail.map((row) => [row.outcome, row.details])).toEqual([
      [
        'success',
        { before: ['annotator'], after: ['annotator', 'admin'], asked: ['annotator', 'admin'] },
      ],
      [
        'denied',
        { before: ['annotator', 'admin'], after: ['annotator', 'admin'], asked: ['annotator'] },
      ],
    ]);
    // Back as it was for the tests that follow.
    expect((await patch(cleoToken, ada.userId, ['admin'])).statusCode).toBe(200);
    expect((await patch(cleoToken, cleo.userId, ['annotator'])).statusCode).toBe(200);
  });

  it("a user's open session sees new roles at its next request, and loses the sockets they no longer allow", async () => {
    const erin = await tokenForRoles(t, 'erin@example.test', ['annotator', 'medical']);
    const federated = await openSocket(t.baseUrl, '/ws/federated', erin.token);
    const exceptions = await openSocket(t.baseUrl, '/ws/exceptions', erin.token);
    const adaNow = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;

    // Ada takes the medical role away from Erin.
    expect((await patch(adaNow, erin.userId, ['annotator'])).statusCode).toBe(200);
    // The exception desk's socket closes; the federated one stays open (annotator allows it).
    expect(await exceptions.closed).toEqual({
      code: ADMIN_CLOSE_CODE,
      reason: 'Your roles changed: this work is no longer yours to do.',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(federated.ws.readyState).toBe(federated.ws.OPEN);
    federated.ws.close();

    // Erin's access token still says medical: the next request is a 401 asking for a refresh.
    const stale = await t.app.inject({
      method: 'GET',
      url: '/internal/users/me',
      headers: as(erin.token),
    });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe(ROLES_CHANGED_MESSAGE);
    expect(stale.headers['www-authenticate']).toContain('error="invalid_token"');
    // A token with the roles she holds now works.
    const fresh = (await tokenForRoles(t, 'erin@example.test', ['annotator'])).token;
    const me = await t.app.inject({ method: 'GET', url: '/internal/users/me', headers: as(fresh) });
    expect(me.json().permissions.roles).toEqual(['annotator']);
  });
});
