import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { ROLES_CHANGED_MESSAGE } from './guard.ts';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('remembered access tokens: the session is still asked on every request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const me = (token: string) => t.app.inject({ url: '/internal/users/me', headers: bearer(token) });

  it('a revoked session refuses its remembered token at the next request', async () => {
    const ann = await tokenForRoles(t, 'ann@token-cache.test', ['annotator']);
    const before = t.app.tokens.verifiedCount();
    expect((await me(ann.token)).statusCode).toBe(200);
    expect((await me(ann.token)).statusCode).toBe(200);
    // Verified once, remembered since.
    expect(t.app.tokens.verifiedCount()).toBe(before + 1);
    await t.app.sessions.revoke(ann.sessionId, 'logout');
    const refused = await me(ann.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ message: string }>().message).toBe(
      'The session behind this access token has ended: sign in again.',
    );
    // And the refusal is in the audit trail, as every refusal is.
    const audited = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'outcome', 'status_code'])
      .where('actor_id', 'is', null)
      .where('action', '=', 'request.refused')
      .where('request_id', '=', String(refused.headers['x-request-id']))
      .executeTakeFirst();
    expect(audited).toEqual({ action: 'request.refused', outcome: 'denied', status_code: 401 });
  });

  it('a role change refuses the remembered token of the older roles at the next request', async () => {
    const erin = await tokenForRoles(t, 'erin@token-cache.test', ['annotator', 'medical']);
    const admin = await tokenForRoles(t, 'ada@token-cache.test', ['admin']);
    expect((await me(erin.token)).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/internal/users/${Buffer.from(erin.userId).toString('base64url')}`,
      headers: bearer(admin.token),
      payload: { permissions: { roles: ['annotator'] } },
    });
    expect(changed.statusCode).toBe(200);
    const refused = await me(erin.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ message: string }>().message).toBe(ROLES_CHANGED_MESSAGE);
  });
});
