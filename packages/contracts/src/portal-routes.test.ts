import { describe, expect, it } from 'vitest';
import { DRAWER_GROUPS, PATHS, PORTAL_ROUTES, redirectTargetFor } from './portal-routes.ts';

describe('post-login redirect target (spec 1 §2)', () => {
  it.each([
    ['/jobs/federated', '/jobs/federated'],
    ['/jobs', '/jobs'],
    ['/jobs/async/pipelines/3/steps/a/tasks/9', '/jobs/async/pipelines/3/steps/a/tasks/9'],
    ['/conversations', '/conversations'],
    ['/conversations/abc', '/conversations/abc'],
    ['/admin/user-management', '/'],
    ['/test/entity-recognition', '/'],
    ['/jobsfoo', '/'],
    ['/', '/'],
    ['/knowledge/inspect/graph', '/'],
  ])('%s is remembered as %s', (path, expected) => {
    expect(redirectTargetFor(path)).toBe(expected);
  });
});

describe('portal route table', () => {
  it('holds every route of spec 1 §2 and spec 3 §2', () => {
    const paths = PORTAL_ROUTES.map((r) => r.path);
    for (const path of [
      '/',
      '/jobs/federated',
      '/jobs/exception',
      '/jobs/async',
      '/jobs/clinical-summary',
      '/jobs/data-preparation',
      '/jobs/authoring-tasks',
      '/test/entity-recognition',
      '/test/differential-diagnosis',
      '/test/clinical-inference',
      '/conversations',
      '/knowledge/inspect/graph',
      '/admin/user-management',
      '/admin/session-management',
      '/admin/system/health',
      '/admin/system/redis',
      '/communication/direct',
      '/communication/push',
      '/scheduling',
      '/deep-link-generator',
      '/jobs/async/pipelines/:pipelineId/steps/:step/tasks/:taskId',
      '/jobs/async/pipelines/:pipelineId/_add_task',
    ]) {
      expect(paths).toContain(path);
    }
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('places the spec-named screens in their drawer groups with their privileges', () => {
    const byPath = new Map<string, (typeof PORTAL_ROUTES)[number]>(
      PORTAL_ROUTES.map((r) => [r.path, r]),
    );
    expect(byPath.get('/knowledge/inspect/graph')).toMatchObject({
      group: 'KG Workbench',
      access: { anyOf: ['graph:inspect:all'] },
    });
    expect(byPath.get('/admin/system/health')).toMatchObject({
      group: 'Sysadmin',
      label: 'EMR Check',
      access: { anyOf: ['system:administration:health_check'] },
    });
    expect(byPath.get('/admin/system/redis')).toMatchObject({
      group: 'Sysadmin',
      label: 'Redis',
      access: { anyOf: ['system:redis:all'] },
    });
    expect(byPath.get('/conversations')).toMatchObject({
      access: { anyOf: ['patient:conversations:search'] },
    });
    expect(byPath.get('/admin/user-management')).toMatchObject({
      access: { anyOf: ['users:permissions:update'] },
    });
    for (const route of PORTAL_ROUTES) {
      if ('group' in route) {
        expect(DRAWER_GROUPS).toContain(route.group);
      }
    }
    expect(PATHS.federated).toBe('/jobs/federated');
  });
});
