import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// No web feature imports another feature (bulletproof-react).
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url));
// The features that show a technician's work and so may use the workbench (docs/adr/0002): a new
// feature is added here on purpose, not by accident.
const workbenchUsers = [
  'federated',
  'exception-desk',
  'async-jobs',
  'clinical-summary',
  'authoring',
];

// Server modules (issue 11, "one module shape"): platform imports no module, and between the
// modules below imports run only downward, the way their module.ts `dependencies` point:
//   platform <- users, knowledge, conversations <- sign-in, scheduling, intelligence, async-jobs
//   platform <- jobs <- realtime <- integration <- conversations <- exceptions, workbench
//   (workbench also checks API keys with integration/api-keys.ts)
// Each entry: a module, and the modules it may import (besides itself).
const SERVER_MODULES = './apps/server/src/modules';
const serverModules = readdirSync(new URL(SERVER_MODULES, import.meta.url));
const serverModuleImports = {
  // The job lifecycle and its outbox are at the bottom: they import no other module.
  jobs: [],
  realtime: ['./jobs', './users'],
  integration: ['./jobs', './realtime'],
  exceptions: ['./jobs', './realtime', './integration', './conversations'],
  users: [],
  knowledge: [],
  conversations: [],
  'sign-in': ['./users'],
  scheduling: ['./conversations'],
  intelligence: ['./knowledge', './conversations'],
  'conversation-insights': ['./knowledge', './conversations'],
  'async-jobs': ['./knowledge'],
  'data-preparation': ['./knowledge'],
  authoring: ['./knowledge'],
  workbench: ['./jobs', './integration/api-keys.ts'],
  summaries: ['./jobs', './conversations'],
  system: [],
  messaging: ['./jobs', './conversations'],
  'deep-links': ['./conversations'],
  // Reads the rollups of the events every module writes; imports no module.
  analytics: [],
};
// At the top: no other module imports these.
const serverTopModules = [
  'sign-in',
  'intelligence',
  'async-jobs',
  'conversation-insights',
  'data-preparation',
  'authoring',
  'analytics',
];
const serverModuleZones = [
  {
    // Its tests may build rows of the modules (the outbox test of platform/db).
    target: './apps/server/src/platform/**/!(*.test).ts',
    from: SERVER_MODULES,
    message: 'platform imports no module: modules depend on platform, not the other way.',
  },
  ...Object.entries(serverModuleImports).map(([name, allowed]) => ({
    target: `${SERVER_MODULES}/${name}`,
    from: SERVER_MODULES,
    except: [`./${name}`, ...allowed],
    message: `modules/${name} imports only the modules below it (eslint.config.js).`,
  })),
  ...serverTopModules.map((name) => ({
    target: serverModules
      .filter((other) => other !== name)
      .map((other) => `${SERVER_MODULES}/${other}`),
    from: `${SERVER_MODULES}/${name}`,
    message: `modules/${name} is at the top: no other module imports it.`,
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.config.{js,ts}',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/ignore': ['node_modules'] },
    rules: {
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Dependencies point one way: contracts <- packages <- apps; apps never import each other.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './packages', from: './apps' },
            { target: './apps/server', from: './apps/web' },
            { target: './apps/web', from: './apps/server' },
            { target: './apps/server', from: './apps/assistant' },
            { target: './apps/web', from: './apps/assistant' },
            { target: './apps/assistant', from: './apps/server' },
            { target: './apps/assistant', from: './apps/web' },
            // Web: shared (lib, components) -> workbench -> features -> app (bulletproof-react).
            {
              target: './apps/web/src/components',
              from: ['./apps/web/src/workbench', './apps/web/src/features', './apps/web/src/app'],
            },
            {
              target: './apps/web/src/lib',
              from: ['./apps/web/src/workbench', './apps/web/src/features', './apps/web/src/app'],
            },
            // lib is below the UI: it reports errors in return values and never shows a toast.
            {
              target: './apps/web/src/lib/**/!(*.test).{ts,tsx}',
              from: './apps/web/src/components',
            },
            {
              target: './apps/web/src/workbench',
              from: ['./apps/web/src/features', './apps/web/src/app'],
            },
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
            })),
            ...webFeatures
              .filter((feature) => !workbenchUsers.includes(feature))
              .map((feature) => ({
                target: `./apps/web/src/features/${feature}`,
                from: './apps/web/src/workbench',
                message:
                  'Only the features in workbenchUsers (eslint.config.js) use the workbench.',
              })),
            // Test kits and doubles live in src/test; the portal itself never imports them.
            {
              target: [
                './apps/web/src/{app,components,features,lib,workbench}/**/!(*.test).{ts,tsx}',
                './apps/web/src/main.tsx',
              ],
              from: './apps/web/src/test',
              message: 'src/test holds test kits: only tests import them.',
            },
            // A feature's own test kit (src/test/features/<area>) is for that feature's tests.
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/test/features',
              except: [`./${feature}`],
            })),
            // Server: platform, then modules downward (see serverModuleZones).
            ...serverModuleZones,
          ],
        },
      ],
    },
  },
  {
    // A request is typed from the route table (api.route) or the zod type provider (/api/v1):
    // a cast would skip the schema that validated it.
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['TSAsExpression', 'TSTypeAssertion'].map((node) => ({
          selector: `${node} > MemberExpression.expression[object.name='request'][property.name=/^(body|params|query)$/]`,
          message:
            'Do not cast request.body, request.params or request.query: type it through the route table (api.route in platform/api-routes.ts takes its schemas from packages/contracts routes) or, outside the table, through the zod type provider (withTypeProvider<ZodTypeProvider>()).',
        })),
      ],
    },
  },
  {
    // Plain scripts (npm start's helpers) are not part of a TypeScript project.
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests read JSON answers loosely: asserting on them is the point.
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
);
