import { describe, expect, it } from 'vitest';
import {
  canAccess,
  hasPrivilege,
  privilegesOf,
  PRIVILEGES,
  ROLE_PRIVILEGES,
  ROLES,
} from './privileges.ts';

describe('roles and privileges (spec 1 §6)', () => {
  it.each([
    [
      'annotator',
      [
        'jobs:async:perform',
        'jobs:async:annotate',
        'jobs:async:approve',
        'jobs:federated:perform',
        'jobs:annotation:perform',
        'jobs:annotation:review',
        'jobs:summarise:perform',
      ],
    ],
    [
      'medical',
      [
        'analytics:dashboard:view',
        'jobs:federated:perform',
        'jobs:summarise:perform',
        'jobs:exception:perform',
        'patient:data:read',
        'patient:conversations:search',
        'patient:conversations:read',
        'patient:appointments:create',
        'patient:communication:all',
        'test:entityrecognition:perform',
        'test:differentialdiagnosis:perform',
        'graph:inspect:all',
      ],
    ],
    [
      'experimental',
      ['jobs:summarise:perform', 'jobs:preparation:perform', 'jobs:preparation:review'],
    ],
    ['approver', ['jobs:async:perform', 'jobs:async:approve']],
    ['sysadmin', ['system:redis:all']],
    // Plus jobs:exception:restricted, this project's privilege for the restricted exceptions queue.
    [
      'admin',
      [
        'users:permissions:update',
        'system:administration:health_check',
        'jobs:exception:restricted',
        // and analytics:people:view, the per-technician analytics (docs/analytics.md).
        'analytics:people:view',
      ],
    ],
  ] as const)('%s holds exactly the privileges of the spec table', (role, expected) => {
    expect([...privilegesOf([role])].sort()).toEqual([...expected].sort());
  });

  it('every privilege is granted by at least one role, and there are six roles', () => {
    const granted = new Set(Object.values(ROLE_PRIVILEGES).flat());
    expect([...granted].sort()).toEqual([...PRIVILEGES].sort());
    expect(ROLES).toEqual([
      'admin',
      'medical',
      'annotator',
      'approver',
      'sysadmin',
      'experimental',
    ]);
  });

  it('a privilege is granted if any of the roles includes it', () => {
    expect(hasPrivilege(['sysadmin', 'approver'], 'jobs:async:approve')).toBe(true);
    expect(hasPrivilege(['sysadmin', 'approver'], 'jobs:federated:perform')).toBe(false);
  });

  it('unknown role names grant nothing', () => {
    expect(privilegesOf(['superuser', 'Admin']).size).toBe(0);
  });

  it('an empty anyOf admits any signed-in user; otherwise one listed privilege is enough', () => {
    expect(canAccess([], { anyOf: [] })).toBe(true);
    expect(canAccess(['admin'], { anyOf: ['system:redis:all'] })).toBe(false);
    expect(canAccess(['admin'], { anyOf: ['system:redis:all', 'users:permissions:update'] })).toBe(
      true,
    );
  });
});
