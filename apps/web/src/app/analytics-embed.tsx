import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { AnalyticsPage } from '../features/analytics/components/analytics-page.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { theme } from './theme.ts';

/** The path of the built-in analytics page (the server signs addresses to it). */
export const ANALYTICS_EMBED_PATH = '/analytics/embed';

/** The signed address's token, read once as the page loads. */
const TOKEN = new URLSearchParams(window.location.search).get('token');

/**
 * The built-in analytics page, loaded in the frame of `/` (issue 16): no shell and no portal
 * session of its own (its signed address stands for the viewer), the portal's dark theme, and the
 * chart library loaded with this chunk only.
 */
export function AnalyticsEmbedApp() {
  const [queryClient] = useState(() => createQueryClient());
  useEffect(() => {
    // The token stays out of the history and of any Referer.
    window.history.replaceState(null, '', ANALYTICS_EMBED_PATH);
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <AnalyticsPage token={TOKEN} />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
