import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every answer of an /api/v1 or /internal route is checked against its declared response
    // schemas (platform/declared-responses.ts): a drift fails the test that met it.
    env: { LOOPDESK_CHECK_RESPONSES: '1' },
  },
});
