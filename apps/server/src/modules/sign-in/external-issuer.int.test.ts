import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { SIGNED_IN_MESSAGE, SIGN_IN_FAILED_MESSAGE } from '@loopdesk/contracts/users.ts';
import { CookieJar, refresh, signIn, startTestApp, type TestApp } from '../../test/harness.ts';

const CLIENT_ID = 'loopdesk-external-test';
const CLIENT_SECRET = randomBytes(24).toString('base64url');

/**
 * A separate identity provider, as Google Workspace is to a production server: its own HTTP
 * server and port, its own issuer URL, a confidential client registered with the id and secret
 * the app is configured with, and every account it is asked for (the test picks the email). It
 * answers like Google: `email_verified`, `name`, `picture`, and `hd` for the account's domain.
 */
/**
 * Follows redirects from `response` (fetched at `url`) until the next one would go to the app's
 * callback (at `appUrl`), or there is none: the caller gets the last response and where it points.
 */
async function followToCallback(
  jar: CookieJar,
  appUrl: string,
  response: Response,
  url: string,
): Promise<{ response: Response; url: string }> {
  const callback = `${appUrl}/auth/callback`;
  for (let hops = 0; hops < 10; hops++) {
    const location = response.headers.get('location');
    if (!location) {
      break;
    }
    url = new URL(location, url).href;
    if (url.startsWith(callback)) {
      break;
    }
    response = await jar.fetch(url);
  }
  return { response, url };
}

async function startExternalIssuer(): Promise<{
  issuer: string;
  /** Registers the app's redirect URI: the provider starts only once the app's address is known. */
  register(redirectUri: string): Promise<void>;
  /** How each token request authenticated the client (its Authorization scheme, or 'none'). */
  tokenAuth: string[];
  close(): Promise<void>;
}> {
  let provider: Provider | undefined;
  let callback: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  const tokenAuth: string[] = [];
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`external issuer failed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** The provider's interactions, completed here: a login form, then consent granted at once. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!provider || !callback) {
      res.writeHead(503).end();
      return;
    }
    const login = /^\/interaction\/([^/?]+)\/login$/.exec(req.url ?? '');
    if (req.method === 'POST' && login) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) {
        chunks.push(chunk as Buffer);
      }
      const email = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('account');
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: email ?? '' } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const interaction = /^\/interaction\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && interaction) {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'consent') {
        const grant = new provider.Grant({
          accountId: details.session?.accountId ?? '',
          clientId: String(details.params.client_id),
        });
        const missing = details.prompt.details as {
          missingOIDCScope?: string[];
          missingOIDCClaims?: string[];
        };
        grant.addOIDCScope((missing.missingOIDCScope ?? ['openid']).join(' '));
        if (missing.missingOIDCClaims) {
          grant.addOIDCClaims(missing.missingOIDCClaims);
        }
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { consent: { grantId } },
          { mergeWithLastSubmission: true },
        );
        return;
      }
      // The same form the harness's signIn posts to (an `account` field), on this issuer's origin.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>External sign-in</title><form method="post" action="${issuer}/interaction/${interaction[1]}/login"><input name="account"></form>`,
      );
      return;
    }
    if (req.url === '/token') {
      tokenAuth.push(req.headers.authorization?.split(' ')[0] ?? 'none');
    }
    await callback(req, res);
  }

  return {
    issuer,
    tokenAuth,
    async register(redirectUri) {
      const { default: ProviderClass } = await import('oidc-provider');
      provider = new ProviderClass(issuer, {
        // A confidential web client, registered as an administrator registers one at Google:
        // the token endpoint authentication is the provider's default (client_secret_basic).
        clients: [
          {
            client_id: CLIENT_ID,
            client_secret: CLIENT_SECRET,
            redirect_uris: [redirectUri],
            response_types: ['code'],
            grant_types: ['authorization_code'],
          },
        ],
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified', 'hd'],
          profile: ['name', 'picture'],
        },
        cookies: { keys: [randomBytes(32).toString('hex')] },
        // Like providers that take only HTTP Basic at the token endpoint, as their discovery says.
        clientAuthMethods: ['client_secret_basic'],
        features: { devInteractions: { enabled: false } },
        pkce: { required: () => true },
        interactions: {
          url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}`,
        },
        findAccount: (_ctx: KoaContextWithOIDC, id: string) => ({
          accountId: id,
          claims: () => ({
            sub: `google-${id}`,
            email: id,
            email_verified: true,
            hd: id.split('@')[1],
            name: `Dr ${id.split('@')[0]}`,
            picture: `https://photos.example/${id.split('@')[0]}.png`,
          }),
        }),
      });
      callback = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('sign-in through an external OIDC issuer (OIDC_ISSUER set)', () => {
  let external: Awaited<ReturnType<typeof startExternalIssuer>>;
  let t: TestApp;

  beforeAll(async () => {
    external = await startExternalIssuer();
    t = await startTestApp({
      listen: true,
      env: {
        OIDC_ISSUER: external.issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        OIDC_ALLOWED_DOMAINS: 'clinic.example',
      },
    });
    await external.register(`${t.baseUrl}/auth/callback`);
  });
  afterAll(async () => {
    await t.close();
    await external.close();
  });

  const signIns = (email: string) =>
    t.database.db
      .selectFrom('audit_events')
      .select(['outcome', 'actor_email', 'details'])
      .where('action', '=', 'auth.sign-in')
      .where('actor_email', '=', email)
      .execute();

  it('mounts no development provider: the sign-in goes to the external issuer', async () => {
    expect((await fetch(`${t.baseUrl}/oidc/.well-known/openid-configuration`)).status).toBe(404);
    const login = await new CookieJar().fetch(`${t.baseUrl}/auth/login`);
    expect(login.status).toBe(302);
    const location = new URL(login.headers.get('location') ?? '');
    expect(location.origin).toBe(external.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${t.baseUrl}/auth/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    // `prompt=select_account` goes to Google only: this provider would refuse the value.
    expect(location.searchParams.has('prompt')).toBe(false);
  });

  it('an account of an allowed domain signs in: the user is upserted and gets a session', async () => {
    const email = 'ines.ortiz@clinic.example';
    const { status, page, jar } = await signIn(t.baseUrl, email);
    expect(page).toContain(SIGNED_IN_MESSAGE);
    expect(status).toBe(200);
    expect(jar.cookies.has('loopdesk_refresh')).toBe(true);

    const user = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      display_name: 'Dr ines.ortiz',
      photo_url: 'https://photos.example/ines.ortiz.png',
    });

    const response = await refresh(t.baseUrl, jar);
    expect(response.status).toBe(200);
    const { accessToken } = (await response.json()) as { accessToken: string };
    const me = await fetch(`${t.baseUrl}/internal/users/me`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      email,
      displayName: 'Dr ines.ortiz',
      photoURL: 'https://photos.example/ines.ortiz.png',
      // New users start with no role: an admin grants them.
      permissions: { roles: [] },
    });
    expect((await signIns(email)).map((a) => a.outcome)).toEqual(['success']);
    // The code was exchanged with the client authentication the issuer's discovery names.
    expect(external.tokenAuth).toEqual(['Basic']);

    // A second sign-in updates the same user rather than creating another.
    expect((await signIn(t.baseUrl, email)).status).toBe(200);
    const rows = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(rows).toEqual([{ id: user.id }]);
  });

  it('an account outside OIDC_ALLOWED_DOMAINS is refused with a clear message and no session', async () => {
    const email = 'someone@gmail.example';
    const before = await t.database.db
      .selectFrom('auth_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const { status, page, jar } = await signIn(t.baseUrl, email);
    expect(status).toBe(401);
    expect(page).toContain(SIGN_IN_FAILED_MESSAGE);
    expect(page).toContain(
      'Sign-in refused: someone@gmail.example is not in an allowed domain (clinic.example). Use your company account.',
    );
    expect(jar.cookies.has('loopdesk_refresh')).toBe(false);
    // No cookie: nobody is signed in (204, issue 20 #24), and no access token.
    expect((await refresh(t.baseUrl, jar)).status).toBe(204);
    const after = await t.database.db
      .selectFrom('auth_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(
      await t.database.db.selectFrom('users').select('id').where('email', '=', email).execute(),
    ).toEqual([]);
    expect((await signIns(email)).map((a) => a.outcome)).toEqual(['denied']);
  });

  it('a callback with the wrong state is a 401 with no session, and the sign-in cannot be replayed', async () => {
    // Walk the real flow up to the provider's redirect back to the app, without following it.
    const email = 'ines.ortiz@clinic.example';
    const jar = new CookieJar();
    let { response, url } = await followToCallback(
      jar,
      t.baseUrl,
      await jar.fetch(`${t.baseUrl}/auth/login`),
      `${t.baseUrl}/auth/login`,
    );
    if (!url.startsWith(`${t.baseUrl}/auth/callback`)) {
      // The provider's sign-in form: post the account, then follow to the callback.
      const action = /<form method="post" action="([^"]+)"/.exec(await response.text())?.[1];
      expect(action).toBeDefined();
      response = await jar.fetch(action ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ account: email }).toString(),
      });
      ({ response, url } = await followToCallback(jar, t.baseUrl, response, action ?? ''));
    }
    const callback = new URL(url);
    expect(callback.pathname).toBe('/auth/callback');
    expect(callback.searchParams.get('code')).toBeTruthy();
    const genuine = new URL(callback);
    callback.searchParams.set('state', 'forged-state');
    jar.cookies.delete('loopdesk_refresh');

    const refused = await jar.fetch(callback.href);
    expect(refused.status).toBe(401);
    const page = await refused.text();
    expect(page).toContain(SIGN_IN_FAILED_MESSAGE);
    expect(page).toContain(
      'The sign-in response does not match this sign-in (wrong state). Start again.',
    );
    expect(jar.cookies.has('loopdesk_refresh')).toBe(false);

    // The refused attempt used up the sign-in: the genuine answer cannot be played afterwards.
    const replay = await jar.fetch(genuine.href);
    expect(replay.status).toBe(401);
    expect(jar.cookies.has('loopdesk_refresh')).toBe(false);
    const denied = await t.database.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'auth.sign-in')
      .where('outcome', '=', 'denied')
      .where('status_code', '=', 401)
      .execute();
    expect(denied.map((a) => (a.details as { reason: string }).reason)).toContain(
      'The sign-in response does not match this sign-in (wrong state). Start again.',
    );
  });
});
