import { z } from 'zod';
import { any, withEmbedToken, type ApiRoute } from './api-route.ts';
import { errorResponses } from '../errors.ts';
import {
  ANALYTICS_VIEW_HEADER,
  AnalyticsFigures,
  AnalyticsFilters,
  DashboardResponse,
  EmbedOpenQuery,
  EmbedOpenResponse,
} from '../analytics.ts';

/**
 * The `/internal` routes of the analytics area: the portal's dashboard address, and the built-in
 * page's own calls with its signed tokens (docs/analytics.md): 401 for a token missing, expired,
 * altered or of the other kind, 403 when its user no longer holds `analytics:dashboard:view`.
 */
export const ANALYTICS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/analytics/dashboard',
    access: any('analytics:dashboard:view'),
    area: 'analytics',
    patientData: 'none',
    spec: '3 §7',
    response: { 200: DashboardResponse },
  },
  {
    method: 'GET',
    path: '/internal/analytics/embed/_open',
    access: withEmbedToken('address'),
    area: 'analytics',
    patientData: 'none',
    spec: '3 §7 (issue 16)',
    query: EmbedOpenQuery,
    response: { 200: EmbedOpenResponse, ...errorResponses([400, 401, 403]) },
  },
  {
    method: 'GET',
    path: '/internal/analytics/embed/figures',
    access: withEmbedToken('view'),
    area: 'analytics',
    patientData: 'none',
    spec: '3 §7 (issue 16)',
    query: AnalyticsFilters,
    headers: z.looseObject({ [ANALYTICS_VIEW_HEADER]: z.string().min(1).max(2000).optional() }),
    response: { 200: AnalyticsFigures, ...errorResponses([400, 401, 403]) },
  },
] as const satisfies readonly ApiRoute[];
