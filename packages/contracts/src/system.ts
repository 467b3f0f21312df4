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
  tenant: z.string().optional(),
  emr: z
    .enum(['builtin', 'fhir-r4'])
    .optional()
    .describe('builtin: Loopdesk’s own record store; fhir-r4: a FHIR R4 server'),
  url: z.string().optional().describe('for fhir-r4: the metadata address asked'),
  tookMs: z.number().int().nonnegative().optional().describe('time the check took'),
  fhirVersion: z.string().optional().describe('for fhir-r4: the CapabilityStatement’s version'),
});
export type EmrTestResult = z.infer<typeof EmrTestResult>;

/** Redis stats (spec 3 §3: "keys as a map of key to bytes"). */
export const RedisStats = z.looseObject({
  keys: z.record(z.string(), z.number().int().nonnegative().describe('memory in bytes')),
});
export type RedisStats = z.infer<typeof RedisStats>;

/**
 * `GET /internal/sysadmin/redis/_stats` (spec 3 §7: "response stats with a keys map"), a page at
 * a time; `configured` is false when this node runs without Redis (`REDIS_URL` unset).
 */
export const RedisStatsResponse = z.object({
  stats: RedisStats,
  configured: z.boolean().default(true),
  keyCount: z.number().int().nonnegative().default(0).describe('every key in the database'),
  nextCursor: z
    .string()
    .nullable()
    .default(null)
    .describe('pass as cursor for the next page; null when the scan is complete'),
});
export type RedisStatsResponse = z.infer<typeof RedisStatsResponse>;

/** The required tenant header of the EMR check (spec 3 §7: "with X-Tenant-ID"). */
export const EmrTestHeaders = z.looseObject({
  'x-tenant-id': z
    .string({ message: 'must name the tenant whose EMR to check' })
    .trim()
    .min(1, 'must name the tenant whose EMR to check')
    .max(200, 'must be at most 200 characters'),
});
export type EmrTestHeaders = z.infer<typeof EmrTestHeaders>;

/** Most keys one page of the Redis dashboard lists. */
export const REDIS_PAGE_MAX = 500;

/** Query of `GET /internal/sysadmin/redis/_stats`: a page of keys, read with SCAN. */
export const RedisStatsQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,20}$/, 'must be the cursor a previous page answered (digits)')
    .default('0')
    .describe('where to go on: nextCursor of the previous page; 0 starts over'),
  count: z.coerce
    .number({ message: 'must be a number of keys' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(REDIS_PAGE_MAX, `must be at most ${REDIS_PAGE_MAX}`)
    .default(100)
    .describe('keys on this page, at most'),
  match: z
    .string()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('a Redis glob pattern, e.g. loopdesk:*'),
});
export type RedisStatsQuery = z.infer<typeof RedisStatsQuery>;
