import { z } from 'zod';
import type { Access, Privilege } from '../privileges.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Which issue builds a route: until then the server answers 501 after the privilege check. */
export type Area =
  | 'users'
  | 'realtime'
  | 'jobs'
  | 'exceptions'
  | 'summaries'
  | 'data-preparation'
  | 'authoring'
  | 'async-jobs'
  | 'intelligence'
  | 'nlp'
  | 'conversations'
  | 'messaging'
  | 'notifications'
  | 'scheduling'
  | 'system'
  | 'analytics'
  | 'integration';

/**
 * Whether a route reads or writes patient data (conversations, messages, patients, jobs and their
 * payloads, documents, summaries, appointments): every call of a `read` or `write` route lands in
 * the audit trail with who, what, when and the outcome, refused and failed calls included
 * (apps/server/src/platform/audit.ts). `none` says it was considered and touches none.
 */
export type PatientDataUse = 'read' | 'write' | 'none';

/**
 * Response schemas keyed by the HTTP status the route answers with them (200, 201, 202, 204…),
 * the shape Fastify's `schema.response` takes.
 */
export type ResponseSchemas = Readonly<Partial<Record<number, z.ZodType>>>;

/**
 * One `/internal` route of the three spec documents. The schemas are the route's whole contract:
 * the server registers and validates them, the web types its calls from them.
 */
export interface ApiRoute {
  readonly method: HttpMethod;
  /** Fastify path syntax (`:param`). */
  readonly path: string;
  /** A staff privilege rule, or the built-in analytics page's own signed token. */
  readonly access: Access | EmbedTokenAccess;
  readonly area: Area;
  /** Whether it reads or writes patient data (audited on every call when it does). */
  readonly patientData?: PatientDataUse;
  /** Where the spec names it. */
  readonly spec: string;
  /** The path's `:params` (every route whose path has one). */
  readonly params?: z.ZodType;
  /** The query string, when the route reads one. */
  readonly query?: z.ZodType;
  /** Headers the route reads and checks (such as the tenant header). */
  readonly headers?: z.ZodType;
  /** The JSON body (every route but GET; `NoBody` for one that reads none). */
  readonly body?: z.ZodType;
  /**
   * The media types of a body that is not JSON (`['multipart/form-data']` for an upload): the
   * OpenAPI document offers the body schema under them. The route reads such a body itself
   * (the server registers it with a validator that leaves the body to the handler), so its body
   * schema documents the form's fields.
   */
  readonly consumes?: readonly string[];
  readonly response?: ResponseSchemas;
}

/**
 * The access kind of an `/api/v1` route: the integration API's key (`Authorization: Bearer
 * ldk_…`, created by an admin), which the server checks before the body is read. No staff
 * privilege applies.
 */
export interface ApiKeyAccess {
  readonly apiKey: true;
}

/**
 * The access kind of the built-in analytics page's own calls: a token the server signed for the
 * page (the frame has no portal session and no staff token), whose user must hold
 * `analytics:dashboard:view` now. `address`: the signed address's token, in the query (`?token=`,
 * audience `embed`); `view`: the view token it is exchanged for, in the `X-Analytics-View` header
 * (audience `view`).
 */
export interface EmbedTokenAccess {
  readonly embedToken: 'address' | 'view';
}

/**
 * One `/api/v1` route of the assistant's integration API: the same contract as an `/internal`
 * route (its schemas are its whole contract), behind an API key instead of a staff token.
 */
export interface ApiV1Route extends Omit<ApiRoute, 'access'> {
  readonly access: ApiKeyAccess;
}

export const signedIn: Access = { anyOf: [] };
/** The access of every `/api/v1` route. */
export const withApiKey: ApiKeyAccess = { apiKey: true };
/** The access of the analytics page's own calls, by the token they carry. */
export const withEmbedToken = (embedToken: EmbedTokenAccess['embedToken']): EmbedTokenAccess => ({
  embedToken,
});
/** Whether a route is called with a staff token (its access names privileges). */
export const isStaffAccess = (access: Access | EmbedTokenAccess | ApiKeyAccess): access is Access =>
  'anyOf' in access;
export const any = (...anyOf: Privilege[]): Access => ({ anyOf });

/**
 * The body of a route that reads none (a POST that only acts, a DELETE): the server registers no
 * body schema for it, so whatever is sent is ignored, as before the table carried bodies.
 */
export const NoBody = z.unknown().describe('No body: the route reads none');
