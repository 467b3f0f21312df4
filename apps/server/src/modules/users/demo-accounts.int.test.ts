import { afterEach, describe, expect, it } from 'vitest';
import { refresh, signIn, startTestApp, type TestApp } from '../../test/harness.ts';

/** Issue 15: DEMO=0 turns off the demo assistant, not the development sign-in's roles. */
describe('the development sign-in with DEMO=0', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('keeps the demo accounts with their roles, so they see the portal and not only No access yet', async () => {
    t = await startTestApp({ listen: true, env: { DEMO: '0' } });
    const { jar } = await signIn(t.baseUrl, 'medical@loopdesk.test');
    const response = await refresh(t.baseUrl, jar);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { permissions: { roles: string[] } } };
    expect(body.user.permissions.roles).toEqual(['medical']);
    const lead = await t.database.db
      .selectFrom('users')
      .select('roles')
      .where('email', '=', 'lead@loopdesk.test')
      .executeTakeFirstOrThrow();
    expect([...lead.roles].sort()).toEqual(
      ['admin', 'annotator', 'approver', 'experimental', 'medical', 'sysadmin'].sort(),
    );
  });
});
