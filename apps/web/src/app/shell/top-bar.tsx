import HelpOutlinedIcon from '@mui/icons-material/HelpOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import NoteAddIcon from '@mui/icons-material/NoteAdd';
import AppBar from '@mui/material/AppBar';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import type { Me, PortalConfig } from '@loopdesk/contracts/users.ts';
import { DEFAULT_BAR_COLOUR, ENVIRONMENT_COLOURS } from '../theme.ts';
import { AccountMenu } from './account-menu.tsx';
import { ExternalIconLink } from './external-icon-link.tsx';
import { NAV_ID } from './nav-drawer.tsx';
import { NotificationBell } from './notification-bell.tsx';

interface TopBarProps {
  title: string;
  drawerOpen: boolean;
  onToggleDrawer: () => void;
  config: PortalConfig | undefined;
  user: Me;
}

/** Top bar: drawer button, screen title, external links, queue bell and account (spec 1 §2 Shell). */
export function TopBar({ title, drawerOpen, onToggleDrawer, config, user }: TopBarProps) {
  const colour = config ? ENVIRONMENT_COLOURS[config.environment] : DEFAULT_BAR_COLOUR;
  return (
    <AppBar
      position="fixed"
      elevation={2}
      sx={{
        bgcolor: colour,
        backgroundImage: 'none',
        color: '#fff',
        zIndex: (theme) => theme.zIndex.drawer + 1,
      }}
      data-environment={config?.environment ?? 'unknown'}
    >
      <Toolbar>
        <IconButton
          edge="start"
          color="inherit"
          aria-label="Navigation menu"
          aria-controls={NAV_ID}
          aria-expanded={drawerOpen}
          onClick={onToggleDrawer}
          sx={{ mr: 2 }}
        >
          <MenuIcon />
        </IconButton>
        <Typography variant="h6" component="h1" noWrap sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <ExternalIconLink
          href={config?.syntheticTestCaseUrl ?? ''}
          label="Create a synthetic test case"
          notConfigured="The synthetic test case form is not configured"
          icon={<NoteAddIcon />}
        />
        <ExternalIconLink
          href={config?.helpCenterUrl ?? ''}
          label="Help center"
          notConfigured="The help center is not configured"
          icon={<HelpOutlinedIcon />}
        />
        <NotificationBell roles={user.permissions.roles} />
        <AccountMenu user={user} />
      </Toolbar>
    </AppBar>
  );
}
