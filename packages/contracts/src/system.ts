import { z } from 'zod';

/**
 * System administration calls (spec 3 §2 "System health", "Redis dashboard", §3 "Redis stats",
 * §7 "Admin"; spec 1 §7): the tenant EMR check and the Redis key statistics.
 */

/**
 * `GET /internal/experiment/health/_emr_test` with X-Tenant-ID (spec 3 §7: "response status"):
 * the screen shows 'Complete with status {n}' (spec 3 §2).
 */
export const EmrTestResult = z.looseObject({
  status: z.number().int().describe('the status the tenant’s EMR answered with'),
});
export type EmrTestResult = z.infer<typeof EmrTestResult>;

/** Redis stats (spec 3 §3: "keys as a map of key to bytes"). */
export const RedisStats = z.looseObject({
  keys: z.record(z.string(), z.number().int().nonnegative().describe('memory in bytes')),
});
export type RedisStats = z.infer<typeof RedisStats>;

/** `GET /internal/sysadmin/redis/_stats` (spec 3 §7: "response stats with a keys map"). */
export const RedisStatsResponse = z.object({ stats: RedisStats });
export type RedisStatsResponse = z.infer<typeof RedisStatsResponse>;
