import { any, signedIn, type ApiRoute } from './api-route.ts';
import { errorResponses } from '../errors.ts';
import {
  ManagedUser,
  Me,
  UpdatePermissionsBody,
  UserKeyParams,
  UsersListQuery,
  UsersListResponse,
} from '../users.ts';

/** The `/internal` routes of the users area. */
export const USERS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/users/me',
    access: signedIn,
    area: 'users',
    patientData: 'none',
    spec: '1 §7',
    response: { 200: Me },
  },
  {
    method: 'GET',
    path: '/internal/users/:userId',
    access: any('users:permissions:update'),
    area: 'users',
    patientData: 'none',
    spec: '1 §7, 3 §7',
    params: UserKeyParams,
    response: { 200: ManagedUser },
  },
  {
    method: 'PATCH',
    path: '/internal/users/:userId',
    access: any('users:permissions:update'),
    area: 'users',
    patientData: 'none',
    spec: '1 §7, 3 §7',
    params: UserKeyParams,
    body: UpdatePermissionsBody,
    // 409: the change would leave nobody holding the admin role.
    response: { 200: ManagedUser, ...errorResponses([409]) },
  },
  {
    method: 'GET',
    path: '/internal/users',
    access: any('users:permissions:update'),
    area: 'users',
    patientData: 'none',
    spec: 'issue 15 (beyond the spec: every user with their roles and last sign-in)',
    query: UsersListQuery,
    response: { 200: UsersListResponse },
  },
] as const satisfies readonly ApiRoute[];
