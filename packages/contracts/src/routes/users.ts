import { any, signedIn, type ApiRoute } from './api-route.ts';
import { ManagedUser, Me, UpdatePermissionsBody, UserKeyParams } from '../users.ts';

/** The `/internal` routes of the users area. */
export const USERS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/users/me',
    access: signedIn,
    area: 'users',
    spec: '1 §7',
    response: { 200: Me },
  },
  {
    method: 'GET',
    path: '/internal/users/:userId',
    access: any('users:permissions:update'),
    area: 'users',
    spec: '1 §7, 3 §7',
    params: UserKeyParams,
    response: { 200: ManagedUser },
  },
  {
    method: 'PATCH',
    path: '/internal/users/:userId',
    access: any('users:permissions:update'),
    area: 'users',
    spec: '1 §7, 3 §7',
    params: UserKeyParams,
    body: UpdatePermissionsBody,
    response: { 200: ManagedUser },
  },
] as const satisfies readonly ApiRoute[];
