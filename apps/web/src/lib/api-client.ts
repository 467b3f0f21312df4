import type { z } from 'zod';
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
  /** Hears the successful response, for what its headers say (e.g. a Location). */
  onResponse?: (response: Response) => void;
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
  options.onResponse?.(response);
  const text = response.status === 204 ? '' : await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  return options.schema ? options.schema.parse(data) : (data as T);
}

type ApiRoute = (typeof API_ROUTES)[number];

/** Every `/internal` path of the route table for a method. */
export type ApiPath<M extends HttpMethod> = Extract<ApiRoute, { method: M }>['path'];

type RouteOf<M extends HttpMethod, P> = Extract<ApiRoute, { method: M; path: P }>;

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The `:params` a route path needs. */
export type PathParams<P extends string> = Readonly<Record<ParamNames<P>, string>>;

/** The success statuses a response schema of the table can be keyed by. */
type SuccessStatus = 200 | 201 | 202 | 204;

/** The answer of a route: what its success response schema parses to. */
type ResponseOf<M extends HttpMethod, P> =
  RouteOf<M, P> extends { response: infer R }
    ? R[Extract<keyof R, SuccessStatus>] extends Parser<infer T>
      ? T
      : unknown
    : unknown;

/**
 * The body a route takes, from its schema (what it accepts before defaults): required where the
 * route reads one, refused on a GET, free where the table says nothing yet (routes not built).
 */
type BodyOption<M extends HttpMethod, P> =
  RouteOf<M, P> extends { body: infer S extends z.ZodType }
    ? unknown extends z.input<S>
      ? { body?: unknown }
      : { body: z.input<S> }
    : M extends 'GET'
      ? { body?: undefined }
      : { body?: unknown };

type RouteCallOptions<M extends HttpMethod, P extends string, T> = Omit<
  RequestOptions<T>,
  'method' | 'body'
> &
  BodyOption<M, P> &
  ([ParamNames<P>] extends [never] ? { params?: undefined } : { params: PathParams<P> });

/** The route's success response schema: each route of the table answers success one way. */
function successSchema(route: ApiRoute | undefined): Parser<unknown> | undefined {
  if (!route || !('response' in route)) {
    return undefined;
  }
  const responses: Readonly<Partial<Record<number, Parser<unknown>>>> = route.response;
  const status = Object.keys(responses)
    .map(Number)
    .find((code) => code >= 200 && code < 300);
  return status === undefined ? undefined : responses[status];
}

/**
 * A call to a route of the contracts' table: the path is checked against the table, its `:params`
 * are required, the body is typed by the route's body schema, and the answer is typed (and
 * validated) by the route's response schema.
 */
export function callRoute<M extends HttpMethod, P extends ApiPath<M>, T = ResponseOf<M, P>>(
  method: M,
  path: P,
  ...[options]: [ParamNames<P>] extends [never]
    ? BodyOption<M, P> extends { body: unknown }
      ? [options: RouteCallOptions<M, P, T>]
      : [options?: RouteCallOptions<M, P, T>]
    : [options: RouteCallOptions<M, P, T>]
): Promise<T> {
  const { params, ...rest }: RequestOptions<T> & { params?: Readonly<Record<string, string>> } =
    options ?? {};
  const filled = params ? fillPath(path, params) : path;
  const route = API_ROUTES.find(
    (candidate) => candidate.method === method && candidate.path === path,
  );
  const schema = rest.schema ?? (successSchema(route) as Parser<T> | undefined);
  return apiRequest<T>(filled, { ...rest, method, ...(schema ? { schema } : {}) });
}
