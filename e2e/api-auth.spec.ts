import { expect, test, type Page } from '@playwright/test';
import { accessTokenOf, signInAs } from './support/sign-in.ts';

/** Signs in as the annotator in a page and trades the page's refresh cookie for an access token. */
async function annotatorAccessToken(page: Page): Promise<string> {
  await signInAs(page, 'annotator@loopdesk.test');
  return accessTokenOf(page);
}

test('the API refuses a request without a token with 401', async ({ request }) => {
  const response = await request.get('/internal/users/me');

  expect(response.status()).toBe(401);
  expect(await response.json()).toEqual({ error: 'Unauthorized', message: expect.any(String) });
});

test.describe('with the annotator bearer token', () => {
  test('the API refuses the redis stats with 403 naming the missing privilege', async ({
    page,
    request,
  }) => {
    const token = await annotatorAccessToken(page);

    const response = await request.get('/internal/sysadmin/redis/_stats', {
      headers: { authorization: `Bearer ${token}` },
    });

    expect(response.status()).toBe(403);
    const body = await response.json();
    expect(body).toEqual({
      error: 'Forbidden',
      message: expect.stringContaining('system:redis:all'),
    });
  });

  test('the API answers who is signed in', async ({ page, request }) => {
    const token = await annotatorAccessToken(page);

    const response = await request.get('/internal/users/me', {
      headers: { authorization: `Bearer ${token}` },
    });

    expect(response.status()).toBe(200);
    const me = await response.json();
    expect(me.email).toBe('annotator@loopdesk.test');
    expect(me.permissions.roles).toEqual(['annotator']);
  });
});
