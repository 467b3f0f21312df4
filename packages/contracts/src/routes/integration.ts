import { any, NoBody, type ApiRoute } from './api-route.ts';
import { ERROR_RESPONSES } from '../errors.ts';
import {
  ApiKeyIdParams,
  ApiKeyList,
  ApiKeyView,
  CreateApiKeyBody,
  CreatedApiKey,
  DeliveriesQuery,
  DeliveryList,
  EventIdParams,
  WebhookDeliveryView,
} from '../integration.ts';

/** The `/internal` routes of the integration area. */
export const INTEGRATION_ROUTES = [
  {
    method: 'GET',
    path: '/internal/integration/api-keys',
    access: any('users:permissions:update'),
    area: 'integration',
    patientData: 'none',
    spec: 'issue 6',
    response: { 200: ApiKeyList, ...ERROR_RESPONSES },
  },
  {
    method: 'POST',
    path: '/internal/integration/api-keys',
    access: any('users:permissions:update'),
    area: 'integration',
    patientData: 'none',
    spec: 'issue 6',
    body: CreateApiKeyBody,
    response: { 201: CreatedApiKey, ...ERROR_RESPONSES },
  },
  {
    method: 'DELETE',
    path: '/internal/integration/api-keys/:id',
    access: any('users:permissions:update'),
    area: 'integration',
    patientData: 'none',
    spec: 'issue 6',
    params: ApiKeyIdParams,
    body: NoBody,
    response: { 200: ApiKeyView, ...ERROR_RESPONSES },
  },
  {
    method: 'GET',
    path: '/internal/integration/webhook-deliveries',
    access: any('users:permissions:update'),
    area: 'integration',
    patientData: 'read',
    spec: 'issue 6',
    query: DeliveriesQuery,
    response: { 200: DeliveryList, ...ERROR_RESPONSES },
  },
  {
    method: 'POST',
    path: '/internal/integration/webhook-deliveries/:eventId/_redeliver',
    access: any('users:permissions:update'),
    area: 'integration',
    patientData: 'write',
    spec: 'issue 6',
    params: EventIdParams,
    body: NoBody,
    response: { 200: WebhookDeliveryView, ...ERROR_RESPONSES },
  },
] as const satisfies readonly ApiRoute[];
