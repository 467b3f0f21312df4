import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './router.tsx';

/**
 * A data router (one splat route holding the portal's <Routes>): screens may ask before the user
 * leaves them (useBlocker), e.g. a task with unsaved edits (issue 20 point 17).
 */
const router = createBrowserRouter([
  {
    path: '*',
    element: (
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    ),
  },
]);

export function App() {
  return <RouterProvider router={router} />;
}
