import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { DRAWER_WIDTH, type DrawerGroup } from '@loopdesk/contracts/portal-routes.ts';
import { useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { navGroupsFor, type NavGroup } from '../../lib/navigation.ts';

export const NAV_ID = 'main-navigation';

/** Open on first render (spec 1 §2 Shell: "Jobs (open by default)"). */
const OPEN_BY_DEFAULT: readonly DrawerGroup[] = ['Jobs'];

const groupId = (group: DrawerGroup) => `nav-group-${group.replace(/\s+/g, '-').toLowerCase()}`;

/** The group holding the screen at `pathname`, if the drawer lists that screen. */
function groupOf(groups: readonly NavGroup[], pathname: string): DrawerGroup | undefined {
  return groups.find(({ routes }) =>
    routes.some(
      (route) =>
        pathname === route.path || (route.path !== '/' && pathname.startsWith(`${route.path}/`)),
    ),
  )?.group;
}

interface NavDrawerProps {
  open: boolean;
  roles: readonly string[];
  /** The server's version from /portal-config, shown when it differs from the web build. */
  serverVersion: string | undefined;
}

/** The navigation drawer: version id, then the collapsible groups of the links the roles open. */
export function NavDrawer({ open, roles, serverVersion }: NavDrawerProps) {
  const { pathname } = useLocation();
  // Issue 20 #25 (docs/decisions.md): a group with no screen for the roles is not shown, not even
  // the Sysadmin header, which spec 1 §2 always shows; a user with every role sees it as the spec.
  const groups = navGroupsFor(roles).filter(({ routes }) => routes.length > 0);
  const current = groupOf(groups, pathname);
  const [expanded, setExpanded] = useState<ReadonlySet<DrawerGroup>>(
    () => new Set([...OPEN_BY_DEFAULT, ...(current ? [current] : [])]),
  );
  // The group of the current page opens whenever the page changes, however the user got there
  // (a home page link, the bell, the address bar); groups the user opened or closed stay so.
  // Adjusted while rendering (not in an effect), so the drawer never paints the old state.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    if (current && !expanded.has(current)) {
      setExpanded(new Set([...expanded, current]));
    }
  }
  const toggle = (group: DrawerGroup) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(group)) {
        next.add(group);
      }
      return next;
    });

  return (
    <Drawer
      variant="persistent"
      anchor="left"
      open={open}
      sx={{
        width: open ? DRAWER_WIDTH : 0,
        flexShrink: 0,
        transition: (theme) => theme.transitions.create('width'),
        '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
      }}
    >
      <Toolbar />
      <Box component="nav" id={NAV_ID} aria-label="Main navigation" sx={{ overflowY: 'auto' }}>
        <Box sx={{ px: 2, py: 1 }}>
          <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
            Version {__APP_VERSION__}
          </Typography>
          {serverVersion && serverVersion !== __APP_VERSION__ ? (
            <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
              Server {serverVersion}
            </Typography>
          ) : null}
        </Box>
        <Divider />
        <List disablePadding>
          {groups.map(({ group, routes }) => {
            const isOpen = expanded.has(group);
            const id = groupId(group);
            return (
              <li key={group}>
                <ListItemButton
                  aria-expanded={isOpen}
                  aria-controls={id}
                  onClick={() => toggle(group)}
                >
                  <ListItemText
                    primary={group}
                    slotProps={{ primary: { sx: { fontWeight: 500 } } }}
                  />
                  {isOpen ? <ExpandLess /> : <ExpandMore />}
                </ListItemButton>
                <Collapse in={isOpen} timeout="auto" unmountOnExit>
                  <List id={id} aria-label={group} disablePadding>
                    {routes.map((route) => (
                      <ListItem key={route.id} disablePadding>
                        <ListItemButton
                          component={NavLink}
                          to={route.path}
                          sx={{ pl: 4, '&.active': { bgcolor: 'action.selected' } }}
                        >
                          <ListItemText primary={route.label} />
                        </ListItemButton>
                      </ListItem>
                    ))}
                  </List>
                </Collapse>
              </li>
            );
          })}
        </List>
      </Box>
    </Drawer>
  );
}
