import { z } from 'zod';

/** The roles a sign-in token may carry (spec 1 §6). */
export const ROLES = [
  'admin',
  'medical',
  'annotator',
  'approver',
  'sysadmin',
  'experimental',
] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Every privilege named by the spec's role table (spec 1 §6), in one string union. */
export const PRIVILEGES = [
  'analytics:dashboard:view',
  // Not in the spec's table: per-technician analytics (docs/analytics.md, issue 16).
  'analytics:people:view',
  'jobs:async:perform',
  'jobs:async:annotate',
  'jobs:async:approve',
  'jobs:federated:perform',
  'jobs:annotation:perform',
  'jobs:annotation:review',
  'jobs:summarise:perform',
  'jobs:exception:perform',
  // Not in the spec's table: the restricted exceptions queue (docs/decisions.md "Exception desk").
  'jobs:exception:restricted',
  'jobs:preparation:perform',
  'jobs:preparation:review',
  'patient:data:read',
  'patient:conversations:search',
  'patient:conversations:read',
  'patient:appointments:create',
  'patient:communication:all',
  'test:entityrecognition:perform',
  'test:differentialdiagnosis:perform',
  'graph:inspect:all',
  'system:redis:all',
  'users:permissions:update',
  'system:administration:health_check',
] as const;
export const Privilege = z.enum(PRIVILEGES);
export type Privilege = z.infer<typeof Privilege>;

/** Role → privileges, exactly the table of spec 1 §6. */
export const ROLE_PRIVILEGES: Readonly<Record<Role, readonly Privilege[]>> = {
  annotator: [
    'jobs:async:perform',
    'jobs:async:annotate',
    'jobs:async:approve',
    'jobs:federated:perform',
    'jobs:annotation:perform',
    'jobs:annotation:review',
    'jobs:summarise:perform',
  ],
  medical: [
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
  experimental: ['jobs:summarise:perform', 'jobs:preparation:perform', 'jobs:preparation:review'],
  approver: ['jobs:async:perform', 'jobs:async:approve'],
  sysadmin: ['system:redis:all'],
  // jobs:exception:restricted is this project's addition: a reviewer who is medical and admin
  // takes conversations of the restricted exceptions queue (docs/decisions.md "Exception desk").
  admin: [
    'users:permissions:update',
    'analytics:people:view',
    'system:administration:health_check',
    'jobs:exception:restricted',
  ],
};

/** Labels for the role checkboxes of user management (spec 3 §6). */
export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  admin: 'Administrator',
  medical: 'medical',
  annotator: 'annotator',
  approver: 'approver',
  sysadmin: 'System Administrator',
  experimental: 'experimental',
};

/** The privileges granted by a list of roles: a privilege is held if any role includes it. */
export function privilegesOf(roles: readonly string[]): Set<Privilege> {
  const held = new Set<Privilege>();
  for (const role of roles) {
    const granted = (ROLE_PRIVILEGES as Record<string, readonly Privilege[] | undefined>)[role];
    for (const privilege of granted ?? []) {
      held.add(privilege);
    }
  }
  return held;
}

/** Whether roles grant a privilege. */
export function hasPrivilege(roles: readonly string[], privilege: Privilege): boolean {
  return privilegesOf(roles).has(privilege);
}

/**
 * Access rule of a route: `anyOf: []` means any signed-in user; otherwise the user needs at
 * least one of the listed privileges.
 */
export interface Access {
  readonly anyOf: readonly Privilege[];
}

/** Whether roles satisfy an access rule. */
export function canAccess(roles: readonly string[], access: Access): boolean {
  if (access.anyOf.length === 0) {
    return true;
  }
  const held = privilegesOf(roles);
  return access.anyOf.some((privilege) => held.has(privilege));
}
