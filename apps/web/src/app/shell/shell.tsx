import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Toolbar from '@mui/material/Toolbar';
import { Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { useCurrentUser } from '../../lib/auth/use-current-user.ts';
import { DEFAULT_PAGE_TITLE, PageTitleContext } from '../../lib/page-title.ts';
import { usePortalConfig } from '../../lib/portal-config.ts';
import { DisclaimerGate } from './disclaimer-gate.tsx';
import { NavDrawer } from './nav-drawer.tsx';
import { TopBar } from './top-bar.tsx';

/** The signed-in frame around every screen: top bar, drawer, disclaimer. */
export function Shell() {
  const user = useCurrentUser();
  const config = usePortalConfig();
  const [drawerOpen, setDrawerOpen] = useState(true);
  const [title, setTitle] = useState(DEFAULT_PAGE_TITLE);

  useEffect(() => {
    document.title = `${title} - Loopdesk`;
    return () => {
      document.title = 'Loopdesk';
    };
  }, [title]);

  if (!user) {
    return null;
  }
  return (
    <PageTitleContext.Provider value={setTitle}>
      <Box sx={{ display: 'flex', minHeight: '100vh' }}>
        <TopBar
          title={title}
          drawerOpen={drawerOpen}
          onToggleDrawer={() => setDrawerOpen((open) => !open)}
          config={config.data}
          user={user}
        />
        <NavDrawer
          open={drawerOpen}
          roles={user.permissions.roles}
          serverVersion={config.data?.version}
        />
        <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: 3 }}>
          <Toolbar />
          <Suspense fallback={<CircularProgress aria-label="Loading screen" />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
      <DisclaimerGate
        key={user.id}
        userId={user.id}
        termsUrl={config.data?.termsUrl ?? ''}
        ready={!config.isPending}
      />
    </PageTitleContext.Provider>
  );
}
