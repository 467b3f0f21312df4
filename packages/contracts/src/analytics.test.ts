import { describe, expect, it } from 'vitest';
import { DashboardResponse } from './analytics.ts';

describe('analytics dashboard schema', () => {
  it('reads {url} (spec 3 §7) and refuses an answer without one', () => {
    expect(DashboardResponse.parse({ url: 'https://analytics.example.test/embed/1' }).url).toBe(
      'https://analytics.example.test/embed/1',
    );
    expect(DashboardResponse.safeParse({}).success).toBe(false);
    expect(DashboardResponse.safeParse({ url: '' }).success).toBe(false);
    expect(DashboardResponse.safeParse({ url: 42 }).success).toBe(false);
  });
});
