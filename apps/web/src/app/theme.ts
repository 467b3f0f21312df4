import { createTheme } from '@mui/material/styles';
import type { PortalEnvironment } from '@loopdesk/contracts/users.ts';

/** The portal is dark (spec 1 §2 Shell). */
export const theme = createTheme({
  palette: { mode: 'dark' },
});

/** Top bar colour per environment (spec 1 §2 Shell): anything else is dark grey. */
export const ENVIRONMENT_COLOURS: Readonly<Record<PortalEnvironment, string>> = {
  staging: '#1565c0',
  test: '#2e7d32',
  localhost: '#c62828',
  production: '#303030',
};

export const DEFAULT_BAR_COLOUR = '#303030';
