import { API_ROUTES, fillPath, type HttpMethod } from '@loopdesk/contracts/routes.ts';
import { HttpError, httpErrorFrom } from './http-error.ts';
import { getAccessToken } from './auth/session-store.ts';
import { renewAfterUnauthorized, signOutLocally } from './auth/session.ts';

/** Anything with a zod-style `parse` (every schema in contracts). */
export interface Parser<T> {
  parse(data: unknown): T;
}

export interface RequestOptions<T = unknown> {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Sent as `X-Tenant-ID` (spec 1 §7: "X-Tenant-ID is sent where noted"). */
  tenantId?: string;
  headers?: Readonly<Record<string, string>>;
  /** Send the bearer token and handle 401 by refreshing (default true). */
  auth?: boolean;
  /** Validates (and types) the JSON answer. */
  schema?: Parser<T>;
  /** Treat any other success status as a failure (e.g. queue sizes accept only 200). */
  expectStatus?: number;
  signal?: AbortSignal;
}

function urlOf(path: string, query: RequestOptions['query']): string {
  if (!query) {
    return path;
  }
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

function send(url: string, options: RequestOptions<unknown>): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = options.auth === false ? undefined : getAccessToken();
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (options.tenantId) {
    headers['X-Tenant-ID'] = options.tenantId;
  }
  const init: RequestInit = {
    method: options.method ?? 'GET',
    headers,
    credentials: 'same-origin',
  };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) {
    init.signal = options.signal;
  }
  return fetch(url, init);
}

/**
 * One call to the server. A 401 is answered by one refresh and one retry; if either fails the
 * portal signs out locally (and the router sends the user to /login).
 */
export async function apiRequest<T = unknown>(
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const url = urlOf(path, options.query);
  let response = await send(url, options);
  if (response.status === 401 && options.auth !== false) {
    try {
      await renewAfterUnauthorized();
    } catch {
      signOutLocally();
      throw await httpErrorFrom(response);
    }
    response = await send(url, options);
    if (response.status === 401) {
      signOutLocally();
    }
  }
  if (!response.ok) {
    throw await httpErrorFrom(response);
  }
  if (options.expectStatus !== undefined && response.status !== options.expectStatus) {
    throw new HttpError(response.status, undefined, response.statusText);
  }
  const text = response.status === 204 ? '' : await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  return options.schema ? options.schema.parse(data) : (data as T);
}

type ApiRoute = (typeof API_ROUTES)[number];

/** Every `/internal` path of the route table for a method. */
export type ApiPath<M extends HttpMethod> = Extract<ApiRoute, { method: M }>['path'];

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The `:params` a route path needs. */
export type PathParams<P extends string> = Readonly<Record<ParamNames<P>, string>>;

/** The answer of a route: what its success response schemas (keyed by status) parse to. */
type ResponseOf<M extends HttpMethod, P> =
  Extract<ApiRoute, { method: M; path: P }> extends { response: infer R }
    ? R[keyof R] extends Parser<infer T>
      ? T
      : unknown
    : unknown;

type RouteCallOptions<P extends string, T> = Omit<RequestOptions<T>, 'method'> &
  ([ParamNames<P>] extends [never] ? { params?: undefined } : { params: PathParams<P> });

/**
 * A call to a route of the contracts' table: the path is checked against the table, its `:params`
 * are required, and the answer is typed (and validated) by the route's response schema.
 */
export function callRoute<M extends HttpMethod, P extends ApiPath<M>, T = ResponseOf<M, P>>(
  method: M,
  path: P,
  ...[options]: [ParamNames<P>] extends [never]
    ? [options?: RouteCallOptions<P, T>]
    : [options: RouteCallOptions<P, T>]
): Promise<T> {
  const { params, ...rest } = (options ?? {}) as RouteCallOptions<P, T> & {
    params?: Readonly<Record<string, string>>;
  };
  const filled = params ? fillPath(path, params) : path;
  const route = API_ROUTES.find(
    (candidate) => candidate.method === method && candidate.path === path,
  );
  // Each route of the table answers success with one status, so its one response schema is it.
  const schema =
    rest.schema ??
    (route && 'response' in route
      ? (Object.values(route.response)[0] as Parser<unknown> as Parser<T>)
      : undefined);
  return apiRequest<T>(filled, { ...rest, method, ...(schema ? { schema } : {}) });
}
