import { createTheme } from '@mui/material/styles';
import type { PortalEnvironment } from '@loopdesk/contracts/users.ts';

/**
 * The focus ring every screen shares (issue 20): a 2 px white outline, at least 3:1 against the
 * dark page, the paper and every top-bar colour (white on #c62828 is 5.6:1). Set once here: a
 * keyboard focus on any control shows it.
 */
export const FOCUS_RING_COLOUR = '#ffffff';
const focusRing = { outline: `2px solid ${FOCUS_RING_COLOUR}`, outlineOffset: 2 } as const;
/** Rows of a list or menu, and tabs, are clipped by their container: the ring goes inside them. */
const insetFocusRing = { ...focusRing, outlineOffset: -2 } as const;

/**
 * The portal is dark (spec 1 §2 Shell). `error.light` is lightened so that red text (red flags)
 * keeps 4.5:1 against a selected row (#383838) as well as the page (WCAG 2.2 AA).
 */
export const theme = createTheme({
  palette: { mode: 'dark', error: { main: '#f44336', light: '#ff8a80' } },
  components: {
    // Links, native controls and anything focusable that is not one of MUI's buttons.
    MuiCssBaseline: { styleOverrides: { ':focus-visible': focusRing } },
    // Buttons, icon buttons, chips, checkboxes, radios, switches… (MUI sets outline: 0 on them).
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
    MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': insetFocusRing } } },
    MuiListItemButton: { styleOverrides: { root: { '&.Mui-focusVisible': insetFocusRing } } },
    MuiTab: { styleOverrides: { root: { '&.Mui-focusVisible': insetFocusRing } } },
  },
});

/** Top bar colour per environment (spec 1 §2 Shell): anything else is dark grey. */
export const ENVIRONMENT_COLOURS: Readonly<Record<PortalEnvironment, string>> = {
  staging: '#1565c0',
  test: '#2e7d32',
  localhost: '#c62828',
  production: '#303030',
};

export const DEFAULT_BAR_COLOUR = '#303030';
