import { describe, expect, it } from 'vitest';
import { EmrTestResult, RedisStatsResponse } from './system.ts';

describe('system administration schemas', () => {
  it('reads the EMR check status (spec 3 §7) and refuses a status in words', () => {
    expect(EmrTestResult.parse({ status: 200 }).status).toBe(200);
    expect(EmrTestResult.safeParse({ status: 'OK' }).success).toBe(false);
    expect(EmrTestResult.safeParse({}).success).toBe(false);
  });

  it('reads Redis stats as a map of key to bytes (spec 3 §3) and refuses sizes in words', () => {
    const stats = RedisStatsResponse.parse({
      stats: { keys: { 'loopdesk:sessions': 2048, 'loopdesk:bus': 512 } },
    });
    expect(Object.keys(stats.stats.keys)).toHaveLength(2);
    expect(RedisStatsResponse.safeParse({ stats: { keys: { a: '2 KB' } } }).success).toBe(false);
    expect(RedisStatsResponse.safeParse({ keys: { a: 1 } }).success).toBe(false);
  });
});
