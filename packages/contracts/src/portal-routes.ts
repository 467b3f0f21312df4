import type { Access, Privilege } from './privileges.ts';

/** Drawer groups in their order (spec 1 §2 Shell). */
export const DRAWER_GROUPS = [
  'Jobs',
  'Test',
  'Conversations',
  'KG Workbench',
  'Admin',
  'Sysadmin',
] as const;
export type DrawerGroup = (typeof DRAWER_GROUPS)[number];

/** Which issue builds a screen; until then it shows 'This screen is not available yet.' */
export type ScreenStatus = 'built' | 'later';

/** One screen of the portal: its path, top-bar title, drawer placement and access. */
export interface PortalRoute {
  readonly id: string;
  readonly path: string;
  readonly title: string;
  /** Link text in the drawer; absent for screens reached from other screens. */
  readonly label?: string;
  readonly group?: DrawerGroup;
  readonly access: Access;
  readonly status: ScreenStatus;
}

const any = (...anyOf: Privilege[]): Access => ({ anyOf });

/**
 * Every screen of spec 1 §2 and spec 3 §2. One table drives the router and the drawer; the
 * privilege of each job and test link is chosen in docs/decisions.md where the spec is silent.
 */
export const PORTAL_ROUTES = [
  { id: 'dashboard', path: '/', title: 'Dashboard', access: any(), status: 'built' },
  {
    id: 'federated',
    path: '/jobs/federated',
    title: 'Federated Jobs',
    label: 'Federated',
    group: 'Jobs',
    access: any('jobs:federated:perform'),
    status: 'built',
  },
  {
    id: 'exception',
    path: '/jobs/exception',
    title: 'Exception Jobs',
    label: 'Exceptions',
    group: 'Jobs',
    access: any('jobs:exception:perform'),
    status: 'built',
  },
  {
    id: 'async',
    path: '/jobs/async',
    title: 'Asynchronous Jobs - Dashboard',
    label: 'Async Jobs',
    group: 'Jobs',
    access: any('jobs:async:perform'),
    status: 'built',
  },
  {
    id: 'async-task',
    path: '/jobs/async/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    title: 'Asynchronous Jobs',
    access: any('jobs:async:perform'),
    status: 'built',
  },
  {
    id: 'async-add-task',
    path: '/jobs/async/pipelines/:pipelineId/_add_task',
    title: 'Asynchronous Jobs',
    access: any('jobs:async:perform'),
    status: 'built',
  },
  {
    id: 'clinical-summary',
    path: '/jobs/clinical-summary',
    title: 'Clinical Summary Review Jobs',
    label: 'Clinical Summary',
    group: 'Jobs',
    access: any('jobs:summarise:perform'),
    status: 'built',
  },
  {
    id: 'data-preparation',
    path: '/jobs/data-preparation',
    title: 'Data Preparation Jobs',
    label: 'Data Preparation',
    group: 'Jobs',
    access: any('jobs:preparation:perform'),
    status: 'built',
  },
  {
    // Not in the spec: one job of the screen, reloadable (issue 12).
    id: 'data-preparation-job',
    path: '/jobs/data-preparation/:id',
    title: 'Data Preparation Jobs',
    access: any('jobs:preparation:perform'),
    status: 'built',
  },
  {
    id: 'authoring-tasks',
    path: '/jobs/authoring-tasks',
    title: 'Authoring Tasks',
    label: 'Authoring Tasks',
    group: 'Jobs',
    access: any('jobs:annotation:perform'),
    status: 'built',
  },
  {
    // Not in the spec: the Annotation Task screen of one document, reloadable (issue 13).
    id: 'authoring-task',
    path: '/jobs/authoring-tasks/:id',
    title: 'Annotation Task',
    access: any('jobs:annotation:perform'),
    status: 'built',
  },
  {
    // Not in the spec: the review of a document's submitted annotations (issue 13 item 5).
    id: 'authoring-review',
    path: '/jobs/authoring-tasks/:id/review',
    title: 'Annotation Review',
    access: any('jobs:annotation:review'),
    status: 'built',
  },
  {
    id: 'entity-recognition',
    path: '/test/entity-recognition',
    title: 'Entity Recognition',
    label: 'Entity Recognition',
    group: 'Test',
    access: any('test:entityrecognition:perform'),
    status: 'built',
  },
  {
    id: 'differential-diagnosis',
    path: '/test/differential-diagnosis',
    title: 'Differential Diagnosis',
    label: 'Differential Diagnosis',
    group: 'Test',
    access: any('test:differentialdiagnosis:perform'),
    status: 'built',
  },
  {
    id: 'clinical-inference',
    path: '/test/clinical-inference',
    title: 'Clinical Inference',
    label: 'Clinical Inference',
    group: 'Test',
    access: any('test:differentialdiagnosis:perform'),
    status: 'built',
  },
  {
    id: 'conversations',
    path: '/conversations',
    title: 'Conversations',
    label: 'Conversations Search',
    group: 'Conversations',
    access: any('patient:conversations:search'),
    status: 'built',
  },
  {
    id: 'direct-messaging',
    path: '/communication/direct',
    title: 'Direct Messaging',
    label: 'Direct Messaging',
    group: 'Conversations',
    access: any('patient:communication:all'),
    status: 'built',
  },
  {
    id: 'push-broadcast',
    path: '/communication/push',
    title: 'Push Broadcast',
    label: 'Push Broadcast',
    group: 'Conversations',
    access: any('patient:communication:all'),
    status: 'built',
  },
  {
    id: 'scheduling',
    path: '/scheduling',
    title: 'Scheduling',
    label: 'Scheduling',
    group: 'Conversations',
    access: any('patient:appointments:create'),
    status: 'built',
  },
  {
    id: 'deep-link-generator',
    path: '/deep-link-generator',
    title: 'Deep Link Generator',
    label: 'Deep Link Generator',
    group: 'Conversations',
    access: any('patient:appointments:create'),
    status: 'built',
  },
  {
    id: 'inspect-graph',
    path: '/knowledge/inspect/graph',
    title: 'Inspect Knowledge Graph',
    label: 'Inspect Knowledge Graph',
    group: 'KG Workbench',
    access: any('graph:inspect:all'),
    status: 'built',
  },
  {
    id: 'user-management',
    path: '/admin/user-management',
    title: 'User Management',
    label: 'User Management',
    group: 'Admin',
    access: any('users:permissions:update'),
    status: 'built',
  },
  {
    id: 'session-management',
    path: '/admin/session-management',
    title: 'Session Management',
    label: 'Session Management',
    group: 'Admin',
    access: any('users:permissions:update'),
    status: 'built',
  },
  {
    id: 'system-health',
    path: '/admin/system/health',
    title: 'EMR Check',
    label: 'EMR Check',
    group: 'Sysadmin',
    access: any('system:administration:health_check'),
    status: 'built',
  },
  {
    id: 'redis',
    path: '/admin/system/redis',
    title: 'Redis',
    label: 'Redis',
    group: 'Sysadmin',
    access: any('system:redis:all'),
    status: 'built',
  },
] as const satisfies readonly PortalRoute[];

export type PortalRouteId = (typeof PORTAL_ROUTES)[number]['id'];

/** Fixed paths by id, so links never spell a path by hand. */
export const PATHS = Object.fromEntries(PORTAL_ROUTES.map((r) => [r.id, r.path])) as {
  readonly [K in PortalRouteId]: Extract<(typeof PORTAL_ROUTES)[number], { id: K }>['path'];
};

/** The login screen's path. */
export const LOGIN_PATH = '/login';

/** Post-login target: kept only for paths under /jobs or /conversations (spec 1 §2). */
export function redirectTargetFor(pathname: string): string {
  return /^\/(jobs|conversations)(\/|$)/.test(pathname) ? pathname : '/';
}

/** How long a saved post-login target stays valid (spec 1 §9). */
export const REDIRECT_TARGET_TTL_MS = 300_000;
/** Login state polling while the popup is open (spec 1 §9). */
export const LOGIN_POLL_MS = 100;
/** Queue size polling (spec 1 §9). */
export const QUEUE_SIZE_POLL_MS = 5000;
/** Toast auto-hide (spec 1 §9). */
export const TOAST_MS = 6000;
/** Drawer width (spec 1 §9). */
export const DRAWER_WIDTH = 256;
