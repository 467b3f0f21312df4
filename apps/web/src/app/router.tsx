import {
  LOGIN_PATH,
  PORTAL_ROUTES,
  type PortalRouteId,
} from '@loopdesk/contracts/portal-routes.ts';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router';
import { FullScreenSpinner } from '../components/full-screen-spinner.tsx';
import { RequireAccess } from './routes/require-access.tsx';
import { RequireSession } from './routes/require-session.tsx';
import { Shell } from './shell/shell.tsx';

const LoginRoute = lazy(() =>
  import('../features/auth/routes/login-route.tsx').then((m) => ({ default: m.LoginRoute })),
);
const DashboardRoute = lazy(() =>
  import('../features/dashboard/routes/dashboard-route.tsx').then((m) => ({
    default: m.DashboardRoute,
  })),
);
const FederatedRoute = lazy(() =>
  import('../features/federated/routes/federated-route.tsx').then((m) => ({
    default: m.FederatedRoute,
  })),
);
const ClinicalSummaryRoute = lazy(() =>
  import('../features/clinical-summary/routes/clinical-summary-route.tsx').then((m) => ({
    default: m.ClinicalSummaryRoute,
  })),
);
const ExceptionRoute = lazy(() =>
  import('../features/exception-desk/routes/exception-route.tsx').then((m) => ({
    default: m.ExceptionRoute,
  })),
);
const EntityRecognitionRoute = lazy(() =>
  import('../features/test-tools/routes/entity-recognition-route.tsx').then((m) => ({
    default: m.EntityRecognitionRoute,
  })),
);
const DifferentialDiagnosisRoute = lazy(() =>
  import('../features/test-tools/routes/differential-diagnosis-route.tsx').then((m) => ({
    default: m.DifferentialDiagnosisRoute,
  })),
);
const ClinicalInferenceRoute = lazy(() =>
  import('../features/test-tools/routes/clinical-inference-route.tsx').then((m) => ({
    default: m.ClinicalInferenceRoute,
  })),
);
const ConversationsRoute = lazy(() =>
  import('../features/conversations/routes/conversations-route.tsx').then((m) => ({
    default: m.ConversationsRoute,
  })),
);
const InspectGraphRoute = lazy(() =>
  import('../features/knowledge-graph/routes/inspect-graph-route.tsx').then((m) => ({
    default: m.InspectGraphRoute,
  })),
);
const AsyncDashboardRoute = lazy(() =>
  import('../features/async-jobs/routes/async-dashboard-route.tsx').then((m) => ({
    default: m.AsyncDashboardRoute,
  })),
);
const AsyncTaskRoute = lazy(() =>
  import('../features/async-jobs/routes/async-task-route.tsx').then((m) => ({
    default: m.AsyncTaskRoute,
  })),
);
const AddTaskRoute = lazy(() =>
  import('../features/async-jobs/routes/add-task-route.tsx').then((m) => ({
    default: m.AddTaskRoute,
  })),
);
const DataPreparationRoute = lazy(() =>
  import('../features/data-preparation/routes/data-preparation-route.tsx').then((m) => ({
    default: m.DataPreparationRoute,
  })),
);
const DataPreparationJobRoute = lazy(() =>
  import('../features/data-preparation/routes/data-preparation-job-route.tsx').then((m) => ({
    default: m.DataPreparationJobRoute,
  })),
);
const AuthoringTasksRoute = lazy(() =>
  import('../features/authoring/routes/authoring-tasks-route.tsx').then((m) => ({
    default: m.AuthoringTasksRoute,
  })),
);
const AnnotationTaskRoute = lazy(() =>
  import('../features/authoring/routes/annotation-task-route.tsx').then((m) => ({
    default: m.AnnotationTaskRoute,
  })),
);
const AnnotationReviewRoute = lazy(() =>
  import('../features/authoring/routes/annotation-review-route.tsx').then((m) => ({
    default: m.AnnotationReviewRoute,
  })),
);
const SessionManagementRoute = lazy(() =>
  import('../features/session-management/routes/session-management-route.tsx').then((m) => ({
    default: m.SessionManagementRoute,
  })),
);
const UserManagementRoute = lazy(() =>
  import('../features/user-management/routes/user-management-route.tsx').then((m) => ({
    default: m.UserManagementRoute,
  })),
);
const SystemHealthRoute = lazy(() =>
  import('../features/system/routes/system-health-route.tsx').then((m) => ({
    default: m.SystemHealthRoute,
  })),
);
const RedisRoute = lazy(() =>
  import('../features/system/routes/redis-route.tsx').then((m) => ({ default: m.RedisRoute })),
);
const DirectMessagingRoute = lazy(() =>
  import('../features/messaging/routes/direct-messaging-route.tsx').then((m) => ({
    default: m.DirectMessagingRoute,
  })),
);
const PushBroadcastRoute = lazy(() =>
  import('../features/push/routes/push-broadcast-route.tsx').then((m) => ({
    default: m.PushBroadcastRoute,
  })),
);
const DeepLinkGeneratorRoute = lazy(() =>
  import('../features/deep-links/routes/deep-link-generator-route.tsx').then((m) => ({
    default: m.DeepLinkGeneratorRoute,
  })),
);
const SchedulingRoute = lazy(() =>
  import('../features/scheduling/routes/scheduling-route.tsx').then((m) => ({
    default: m.SchedulingRoute,
  })),
);
const NotAvailableRoute = lazy(() =>
  import('./routes/not-available-route.tsx').then((m) => ({ default: m.NotAvailableRoute })),
);
const NotFoundRoute = lazy(() =>
  import('./routes/not-found-route.tsx').then((m) => ({ default: m.NotFoundRoute })),
);

/**
 * The screens built so far, by route id. A route the table marks 'later', or one without an entry
 * here, says 'This screen is not available yet.'
 */
const BUILT_SCREENS: Partial<Record<PortalRouteId, LazyExoticComponent<ComponentType>>> = {
  dashboard: DashboardRoute,
  federated: FederatedRoute,
  exception: ExceptionRoute,
  'clinical-summary': ClinicalSummaryRoute,
  'entity-recognition': EntityRecognitionRoute,
  'differential-diagnosis': DifferentialDiagnosisRoute,
  'clinical-inference': ClinicalInferenceRoute,
  'inspect-graph': InspectGraphRoute,
  conversations: ConversationsRoute,
  async: AsyncDashboardRoute,
  'async-task': AsyncTaskRoute,
  'async-add-task': AddTaskRoute,
  'session-management': SessionManagementRoute,
  'user-management': UserManagementRoute,
  'system-health': SystemHealthRoute,
  redis: RedisRoute,
  'direct-messaging': DirectMessagingRoute,
  'push-broadcast': PushBroadcastRoute,
  'deep-link-generator': DeepLinkGeneratorRoute,
  'data-preparation': DataPreparationRoute,
  'data-preparation-job': DataPreparationJobRoute,
  scheduling: SchedulingRoute,
  'authoring-tasks': AuthoringTasksRoute,
  'authoring-task': AnnotationTaskRoute,
  'authoring-review': AnnotationReviewRoute,
};

/** One route per PORTAL_ROUTES entry, guarded by its access rule. */
const screenRoutes = PORTAL_ROUTES.map((route) => {
  const Screen = route.status === 'built' ? BUILT_SCREENS[route.id] : undefined;
  return (
    <Route
      key={route.id}
      path={route.path}
      element={
        <RequireAccess access={route.access} title={route.title}>
          {Screen ? <Screen /> : <NotAvailableRoute title={route.title} />}
        </RequireAccess>
      }
    />
  );
});

/** The route tree: /login, and everything else behind a session inside the shell. */
export function AppRoutes() {
  return (
    <Suspense fallback={<FullScreenSpinner label="Loading" />}>
      <Routes>
        <Route path={LOGIN_PATH} element={<LoginRoute />} />
        <Route element={<RequireSession />}>
          <Route element={<Shell />}>
            {screenRoutes}
            <Route path="*" element={<NotFoundRoute />} />
          </Route>
        </Route>
      </Routes>
    </Suspense>
  );
}
