import { any, type ApiRoute } from './api-route.ts';
import { EmrTestResult, RedisStatsResponse } from '../system.ts';

/** The `/internal` routes of the system area. */
export const SYSTEM_ROUTES = [
  {
    method: 'GET',
    path: '/internal/experiment/health/_emr_test',
    access: any('system:administration:health_check'),
    area: 'system',
    spec: '1 §7, 3 §7',
    response: { 200: EmrTestResult },
  },
  {
    method: 'GET',
    path: '/internal/sysadmin/redis/_stats',
    access: any('system:redis:all'),
    area: 'system',
    spec: '3 §7',
    response: { 200: RedisStatsResponse },
  },
] as const satisfies readonly ApiRoute[];
