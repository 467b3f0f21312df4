import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { AccessTokenResponse, Me, PortalConfig } from '@loopdesk/contracts/users.ts';
import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export type FakeHandler = (request: FakeRequest) => Response | Promise<Response>;

/** A JSON answer. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** The error shape of every endpoint. */
export function errorAnswer(status: number, error: string, message: string): Response {
  return json(status, { error, message });
}

export function makeUser(roles: readonly Role[], overrides: Partial<Me> = {}): Me {
  return {
    id: 'user-ann',
    email: 'ann@example.com',
    displayName: 'Ann Example',
    photoURL: null,
    permissions: { roles: [...roles] },
    ...overrides,
  };
}

export function tokenAnswer(user: Me, expiresIn = 900): AccessTokenResponse {
  return { accessToken: `token-${user.id}`, expiresIn, user };
}

export const TEST_CONFIG: PortalConfig = {
  environment: 'staging',
  version: '0.1.0',
  helpCenterUrl: 'https://help.example.com',
  syntheticTestCaseUrl: 'https://forms.example.com/synthetic',
  termsUrl: 'https://example.com/terms',
  priorityWsUrl: '',
};

/** Routes of a server with `user` signed in (null: nobody), keyed `METHOD /path`. */
export function signedInRoutes(
  user: Me | null,
  sizes: Record<string, number> = { federated: 0, exceptions: 0, 'hpi-summarisation': 0 },
): Record<string, FakeHandler> {
  const routes: Record<string, FakeHandler> = {
    'GET /portal-config': () => json(200, TEST_CONFIG),
    'POST /auth/refresh': () =>
      user ? json(200, tokenAnswer(user)) : errorAnswer(401, 'Unauthorized', 'No session.'),
    'POST /auth/logout': () => new Response(null, { status: 204 }),
    'GET /internal/users/me': () =>
      user ? json(200, user) : errorAnswer(401, 'Unauthorized', 'No session.'),
  };
  for (const [queue, size] of Object.entries(sizes)) {
    routes[`GET /internal/queues/${queue}/_size`] = () => json(200, { size });
  }
  return routes;
}

function parsedOrText(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** Replaces `fetch` with a fake answering from `routes`; unknown routes answer 404. */
export function installFakeServer(routes: Record<string, FakeHandler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    const { pathname: path, searchParams: query } = new URL(url, 'http://localhost');
    // A JSON body parsed; any other text (a text/plain upload) as it is.
    const body: unknown = typeof init?.body === 'string' ? parsedOrText(init.body) : undefined;
    const handler = routes[`${method} ${path}`];
    if (!handler) {
      return errorAnswer(404, 'Not Found', `No fake for ${method} ${path}`);
    }
    return handler({ method, path, query, headers: new Headers(init?.headers), body });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The `METHOD /path` of every call made so far. */
export function callsOf(fetchMock: ReturnType<typeof installFakeServer>): string[] {
  return fetchMock.mock.calls.map(([input, init]) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return `${init?.method ?? 'GET'} ${new URL(url, 'http://localhost').pathname}`;
  });
}
