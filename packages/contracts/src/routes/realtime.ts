import { errorResponses } from '../errors.ts';
import { any, signedIn, type ApiRoute } from './api-route.ts';
import {
  CloudEvent,
  EventAccepted,
  SessionActionResult,
  SessionCount,
  SessionSummary,
} from '../realtime.ts';
import { UserKeyParams } from '../users.ts';

/** The `/internal` routes of the realtime area. */
export const REALTIME_ROUTES = [
  {
    method: 'POST',
    path: '/internal/users/me/_events',
    access: signedIn,
    area: 'realtime',
    patientData: 'write',
    spec: '1 §7',
    body: CloudEvent,
    // 409: the submission is not for the job the user holds.
    response: { 202: EventAccepted, ...errorResponses([409]) },
  },
  {
    method: 'GET',
    path: '/internal/users/:userId/sessions/_close',
    access: any('users:permissions:update'),
    area: 'realtime',
    patientData: 'none',
    spec: '1 §7, 3 §7',
    params: UserKeyParams,
    response: { 200: SessionActionResult },
  },
  {
    method: 'GET',
    path: '/internal/users/:userId/sessions/_remove',
    access: any('users:permissions:update'),
    area: 'realtime',
    patientData: 'none',
    spec: '1 §7, 3 §7',
    params: UserKeyParams,
    response: { 200: SessionActionResult },
  },
  {
    method: 'GET',
    path: '/internal/sessions/_summary',
    access: any('users:permissions:update'),
    area: 'realtime',
    patientData: 'none',
    spec: '1 §7, 3 §7',
    response: { 200: SessionSummary },
  },
  {
    method: 'GET',
    path: '/internal/sessions/_count',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'realtime',
    patientData: 'none',
    spec: '1 §7, 2 §7',
    response: { 200: SessionCount },
  },
] as const satisfies readonly ApiRoute[];
