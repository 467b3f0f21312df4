import { defineConfig } from 'vitest/config';

// .ci/run sets LOOPDESK_REPORT_DIR to collect machine-readable results for its summary line.
const reportDir = process.env.LOOPDESK_REPORT_DIR;
const reportName = process.env.LOOPDESK_REPORT_NAME ?? 'vitest';

export default defineConfig({
  test: {
    // Two cores: PGlite instances and jsdom are heavy.
    maxWorkers: 2,
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
    reporters: reportDir
      ? ['default', ['json', { outputFile: `${reportDir}/${reportName}.json` }]]
      : ['default'],
  },
});
