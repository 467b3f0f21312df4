import { any, type ApiRoute } from './api-route.ts';
import {
  ApiKeyList,
  ApiKeyView,
  CreatedApiKey,
  DeliveryList,
  WebhookDeliveryView,
} from '../integration.ts';

/** The `/internal` routes of the integration area. */
export const INTEGRATION_ROUTES = [
  {
    method: 'GET',
    path: '/internal/integration/api-keys',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: { 200: ApiKeyList },
  },
  {
    method: 'POST',
    path: '/internal/integration/api-keys',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: { 201: CreatedApiKey },
  },
  {
    method: 'DELETE',
    path: '/internal/integration/api-keys/:id',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: { 200: ApiKeyView },
  },
  {
    method: 'GET',
    path: '/internal/integration/webhook-deliveries',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: { 200: DeliveryList },
  },
  {
    method: 'POST',
    path: '/internal/integration/webhook-deliveries/:eventId/_redeliver',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: { 200: WebhookDeliveryView },
  },
] as const satisfies readonly ApiRoute[];
