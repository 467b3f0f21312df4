import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'clinical', environment: 'node', include: ['src/**/*.test.ts'] },
});
