import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';

const container = document.getElementById('root');
if (!container) {
  throw new Error('index.html has no #root element.');
}

/** The built-in analytics page of `/`'s frame: its own chunk, with the chart library (issue 16). */
const AnalyticsEmbedApp = lazy(() =>
  import('./app/analytics-embed.tsx').then((m) => ({ default: m.AnalyticsEmbedApp })),
);

createRoot(container).render(
  <StrictMode>
    {window.location.pathname === '/analytics/embed' ? (
      <Suspense fallback={null}>
        <AnalyticsEmbedApp />
      </Suspense>
    ) : (
      <App />
    )}
  </StrictMode>,
);
