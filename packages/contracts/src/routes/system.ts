import { any, type ApiRoute } from './api-route.ts';
import { errorResponses } from '../errors.ts';
import { EmrTestHeaders, EmrTestResult, RedisStatsQuery, RedisStatsResponse } from '../system.ts';

/** The `/internal` routes of the system area. */
export const SYSTEM_ROUTES = [
  {
    method: 'GET',
    path: '/internal/experiment/health/_emr_test',
    access: any('system:administration:health_check'),
    area: 'system',
    patientData: 'none',
    spec: '1 §7, 3 §7',
    headers: EmrTestHeaders,
    // 404: the tenant has no EMR; 502/504: its FHIR server could not be reached in time.
    response: { 200: EmrTestResult, ...errorResponses([404, 502, 503, 504]) },
  },
  {
    method: 'GET',
    path: '/internal/sysadmin/redis/_stats',
    access: any('system:redis:all'),
    area: 'system',
    patientData: 'none',
    spec: '3 §7',
    query: RedisStatsQuery,
    // 503: REDIS_URL is set but Redis did not answer.
    response: { 200: RedisStatsResponse, ...errorResponses([503]) },
  },
] as const satisfies readonly ApiRoute[];
