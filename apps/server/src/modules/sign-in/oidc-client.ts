import * as client from 'openid-client';
import { randomToken } from '../../platform/auth/tokens.ts';
import type { SignInRepository } from './repository.ts';

/** What the server keeps of the identity provider's answer. */
export interface SignInIdentity {
  readonly email: string;
  readonly emailVerified: boolean;
  readonly displayName: string | null;
  readonly photoUrl: string | null;
  readonly hostedDomain: string | null;
}

/** Why a callback was refused; always a 401 with this message. */
export class SignInError extends Error {
  override name = 'SignInError';
}

const TRANSACTION_TTL_MS = 10 * 60_000;

/**
 * The OIDC relying party: authorization code + PKCE, with state and nonce kept server-side
 * for ten minutes and bound to the browser by a cookie.
 */
export function createOidcClient(options: {
  transactions: SignInRepository;
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** `select_account` lets Google users pick among their accounts (sent to Google only). */
  prompt?: string;
}) {
  let discovered: Promise<client.Configuration> | undefined;
  const insecure = options.issuer.startsWith('http://');
  const configuration = () => {
    discovered ??= client
      .discovery(new URL(options.issuer), options.clientId, options.clientSecret, undefined, {
        execute: insecure ? [client.allowInsecureRequests] : [],
      })
      .then((found) => {
        // The client authenticates at the token endpoint as the provider says it may: HTTP Basic
        // (OIDC Discovery's default when the provider lists nothing), else a form post. Google
        // takes both; some providers take only Basic.
        const server = found.serverMetadata();
        const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
        const auth =
          methods.includes('client_secret_basic') || !methods.includes('client_secret_post')
            ? client.ClientSecretBasic(options.clientSecret)
            : client.ClientSecretPost(options.clientSecret);
        const config = new client.Configuration(
          server,
          options.clientId,
          options.clientSecret,
          auth,
        );
        if (insecure) {
          client.allowInsecureRequests(config);
        }
        return config;
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  return {
    /** Starts a sign-in: returns the transaction id (for the cookie) and the provider URL. */
    async begin(): Promise<{ transactionId: string; url: string }> {
      const config = await configuration();
      const transactionId = randomToken();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      await options.transactions.deleteStartedBefore(new Date(Date.now() - TRANSACTION_TTL_MS));
      await options.transactions.insert({ id: transactionId, state, nonce, codeVerifier });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(options.prompt ? { prompt: options.prompt } : {}),
      });
      return { transactionId, url: url.href };
    },

    /** Completes a sign-in from the callback URL; throws SignInError with what went wrong. */
    async complete(transactionId: string | undefined, callbackUrl: URL): Promise<SignInIdentity> {
      if (!transactionId) {
        throw new SignInError(
          'The sign-in was not started from this browser, or it took too long. Start again.',
        );
      }
      const transaction = await options.transactions.take(transactionId);
      if (!transaction || Date.now() - transaction.created_at.getTime() > TRANSACTION_TTL_MS) {
        throw new SignInError('The sign-in has expired or was already used. Start again.');
      }
      const providerError = callbackUrl.searchParams.get('error');
      if (providerError) {
        const description = callbackUrl.searchParams.get('error_description');
        throw new SignInError(
          `The identity provider refused the sign-in: ${description ?? providerError}.`,
        );
      }
      if (callbackUrl.searchParams.get('state') !== transaction.state) {
        throw new SignInError(
          'The sign-in response does not match this sign-in (wrong state). Start again.',
        );
      }
      const config = await configuration();
      // The token request repeats the registered redirect URI, whatever host the request used.
      const currentUrl = new URL(options.redirectUri);
      currentUrl.search = callbackUrl.search;
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: transaction.code_verifier,
          expectedState: transaction.state,
          expectedNonce: transaction.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        const detail =
          error instanceof client.ResponseBodyError
            ? `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`
            : error instanceof Error
              ? error.message
              : String(error);
        throw new SignInError(
          `The sign-in response could not be verified (${detail}). Start again.`,
        );
      }
      const idClaims = tokens.claims();
      if (!idClaims) {
        throw new SignInError('The identity provider sent no ID token. Start again.');
      }
      // Some providers keep profile claims out of the ID token: ask the userinfo endpoint then.
      const claims: Record<string, unknown> =
        typeof idClaims.email === 'string'
          ? idClaims
          : {
              ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)),
              ...idClaims,
            };
      if (typeof claims.email !== 'string') {
        throw new SignInError(
          'The identity provider did not share an email address; allow the email scope.',
        );
      }
      return {
        email: claims.email.toLowerCase(),
        emailVerified: claims.email_verified === true,
        displayName: typeof claims.name === 'string' ? claims.name : null,
        photoUrl: typeof claims.picture === 'string' ? claims.picture : null,
        hostedDomain: typeof claims.hd === 'string' ? claims.hd.toLowerCase() : null,
      };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
