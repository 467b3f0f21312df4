import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'workbench', environment: 'node', include: ['src/**/*.test.ts'] },
});
