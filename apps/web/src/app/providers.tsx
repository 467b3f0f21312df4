import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ToastProvider } from '../components/toast-provider.tsx';
import { initSession } from '../lib/auth/session.ts';
import { getSession, subscribeSession } from '../lib/auth/session-store.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { theme } from './theme.ts';

/** Learns at start whether a session exists; forgets cached answers whenever it ends. */
function SessionLifecycle({ queryClient }: { queryClient: QueryClient }) {
  useEffect(() => {
    void initSession();
    let previous = getSession().status;
    return subscribeSession(() => {
      const status = getSession().status;
      if (status === 'signed-out' && previous !== 'signed-out') {
        queryClient.clear();
      }
      previous = status;
    });
  }, [queryClient]);
  return null;
}

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client; the app makes one. */
  queryClient?: QueryClient;
}

export function AppProviders({ children, queryClient: given }: AppProvidersProps) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ToastProvider>
          <SessionLifecycle queryClient={queryClient} />
          {children}
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
