import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/**
 * The screenshots of docs/screens, taken on demand and never by the default run (whose testMatch
 * is *.spec.ts): `npx playwright test -c playwright.screens.config.ts`. Same server (global setup),
 * browser and port as the end-to-end tests; see docs/screens/README.md.
 */
export default defineConfig({
  ...base,
  testMatch: '**/*.screens.ts',
  reporter: [['list']],
  timeout: 120_000,
});
