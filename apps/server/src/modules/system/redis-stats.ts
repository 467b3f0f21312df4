import { Redis } from 'ioredis';
import type { RedisStatsQuery, RedisStatsResponse } from '@loopdesk/contracts/system.ts';
import { AppError } from '../../platform/errors.ts';

/** SCAN calls one page may make: a sparse match over a large database stops here and goes on. */
const MAX_SCANS_PER_PAGE = 50;
/** Keys SCAN is asked to look at per call. */
const SCAN_BATCH = 200;

/** Redis key statistics (spec 3 §2 "Redis dashboard"), read without KEYS. */
export interface RedisStatsReader {
  read(query: RedisStatsQuery): Promise<RedisStatsResponse>;
  close(): Promise<void>;
}

/** What the dashboard says on a node without Redis. */
export const NO_REDIS: RedisStatsResponse = {
  stats: { keys: {} },
  configured: false,
  keyCount: 0,
  nextCursor: null,
};

/**
 * Reads a page of keys with their memory: SCAN in batches of SCAN_BATCH (never KEYS, which blocks
 * Redis while it walks every key), then MEMORY USAGE for the page's keys in one pipeline. A page
 * holds about `count` keys (never fewer unless the scan ended; a batch is never split) and takes
 * at most MAX_SCANS_PER_PAGE calls; `nextCursor` goes on where it stopped.
 */
export function createRedisStatsReader(url: string | undefined): RedisStatsReader {
  if (!url) {
    return { read: () => Promise.resolve(NO_REDIS), close: () => Promise.resolve() };
  }
  let client: Redis | undefined;
  const connection = () => {
    // One connection of its own, opened at the first read: the bus's are busy with pub/sub.
    if (!client) {
      client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000 });
      // A failed command answers 503 with its reason; the connection's own errors are not news.
      client.on('error', () => undefined);
    }
    return client;
  };
  return {
    async read({ cursor, count, match }) {
      const redis = connection();
      try {
        const keyCount = await redis.dbsize();
        const found: string[] = [];
        let next = cursor;
        for (let scans = 0; scans < MAX_SCANS_PER_PAGE && found.length < count; scans++) {
          const batch = Math.min(SCAN_BATCH, count - found.length);
          const [after, keys] = match
            ? await redis.scan(next, 'MATCH', match, 'COUNT', batch)
            : await redis.scan(next, 'COUNT', batch);
          found.push(...keys);
          next = after;
          if (next === '0') {
            break;
          }
        }
        // SCAN's COUNT is a hint: a batch may hold a few more keys than asked, and all of them
        // stay on the page (the cursor is past them). A key seen twice is listed once.
        const page = [...new Set(found)];
        const sizes = await redis.pipeline(page.map((key) => ['memory', 'usage', key])).exec();
        const keys: Record<string, number> = {};
        page.forEach((key, index) => {
          const [error, bytes] = sizes?.[index] ?? [null, null];
          // A key that expired between SCAN and MEMORY USAGE answers null: it is gone.
          if (!error && typeof bytes === 'number') {
            keys[key] = bytes;
          }
        });
        return {
          stats: { keys },
          configured: true,
          keyCount,
          nextCursor: next === '0' ? null : next,
        };
      } catch (error) {
        throw new AppError(
          503,
          `Redis (REDIS_URL) did not answer: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    async close() {
      await client?.quit().catch(() => undefined);
    },
  };
}
