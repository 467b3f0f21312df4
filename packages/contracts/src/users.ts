import { z } from 'zod';
import { Role } from './privileges.ts';

/** The signed-in user as `GET /internal/users/me` answers it (spec 1 §3 User). */
export const Me = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  photoURL: z.string().nullable(),
  permissions: z.object({ roles: z.array(Role) }),
});
export type Me = z.infer<typeof Me>;

/** Answer of `POST /auth/refresh`: a short-lived access token. */
export const AccessTokenResponse = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int().describe('seconds until the access token expires'),
  user: Me,
});
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>;

/** The claims of a Loopdesk access token (JWT). */
export const AccessTokenClaims = z.object({
  sub: z.string(),
  sid: z.string(),
  email: z.string(),
  roles: z.array(Role),
});
export type AccessTokenClaims = z.infer<typeof AccessTokenClaims>;

/** Environment of a deployment; it colours the top bar (spec 1 §2 Shell). */
export const PortalEnvironment = z.enum(['localhost', 'test', 'staging', 'production']);
export type PortalEnvironment = z.infer<typeof PortalEnvironment>;

/** Public settings the portal reads before sign-in: `GET /portal-config`. */
export const PortalConfig = z.object({
  environment: PortalEnvironment,
  version: z.string(),
  helpCenterUrl: z.string(),
  syntheticTestCaseUrl: z.string(),
  termsUrl: z.string(),
  priorityWsUrl: z.string(),
});
export type PortalConfig = z.infer<typeof PortalConfig>;

/** Message the sign-in popup posts to its opener once the session cookie is set. */
export const SIGNED_IN_MESSAGE = 'loopdesk:signed-in';
/** Message the sign-in popup posts to its opener when sign-in was refused. */
export const SIGN_IN_FAILED_MESSAGE = 'loopdesk:sign-in-failed';

/** A user as user management reads it (spec 3 §3 User). */
export const ManagedUser = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  photoUrl: z.string().nullable(),
  customClaims: z.object({ roles: z.array(Role) }),
});
export type ManagedUser = z.infer<typeof ManagedUser>;

/** Body of `PATCH /internal/users/{base64 of user id}` (spec 1 §7). */
export const UpdatePermissionsBody = z.object({
  permissions: z.object({
    roles: z.array(Role).max(Role.options.length).describe('the complete new list of roles'),
  }),
});
export type UpdatePermissionsBody = z.infer<typeof UpdatePermissionsBody>;

/** Path parameter of the user routes: the base64 of the user's id or email. */
export const UserKeyParams = z.object({ userId: z.string().min(1).max(400) });
export type UserKeyParams = z.infer<typeof UserKeyParams>;

/** BroadcastChannel the sign-in popup also announces on, for popups whose opener link was cut. */
export const AUTH_CHANNEL = 'loopdesk-auth';

/** Most users one page of `GET /internal/users` lists. */
export const USERS_PAGE_SIZE_MAX = 100;

/** Query of `GET /internal/users`: a page of every user, optionally searched. */
export const UsersListQuery = z.object({
  q: z
    .string()
    .trim()
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('part of an email or a display name, or a whole user id'),
  p: z.coerce
    .number({ message: 'must be a page number' })
    .int('must be a whole page number')
    .min(0, 'must be 0 or more')
    .default(0)
    .describe('the page, from 0'),
  s: z.coerce
    .number({ message: 'must be a page size' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(USERS_PAGE_SIZE_MAX, `must be at most ${USERS_PAGE_SIZE_MAX}`)
    .default(20)
    .describe('users per page'),
});
export type UsersListQuery = z.infer<typeof UsersListQuery>;

/** One row of the users list: who, their roles and when they last signed in. */
export const UserListItem = ManagedUser.extend({
  lastSignInAt: z.string().nullable().describe('ISO 8601; null when they never signed in'),
});
export type UserListItem = z.infer<typeof UserListItem>;

/** `GET /internal/users`: a page of users, ordered by email. */
export const UsersListResponse = z.object({
  items: z.array(UserListItem),
  total: z.number().int().nonnegative().describe('users matching the search, on every page'),
  page: z.number().int().nonnegative(),
  size: z.number().int().positive(),
});
export type UsersListResponse = z.infer<typeof UsersListResponse>;
