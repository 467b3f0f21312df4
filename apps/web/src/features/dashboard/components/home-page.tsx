import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import type { Me } from '@loopdesk/contracts/users.ts';
import { Link as RouterLink } from 'react-router';
import { navGroupsFor } from '../../../lib/navigation.ts';
import { usePageTitle } from '../../../lib/page-title.ts';

/** Home for users without the analytics dashboard: a welcome and the screens they can open. */
export function HomePage({ user }: { user: Me }) {
  usePageTitle('Dashboard');
  const groups = navGroupsFor(user.permissions.roles).filter(({ routes }) => routes.length > 0);

  return (
    <Box component="section" sx={{ maxWidth: 720 }}>
      <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
        Welcome, {user.displayName ?? user.email}
      </Typography>
      {groups.length === 0 ? (
        <Typography>Your roles do not open any screen yet.</Typography>
      ) : (
        <>
          <Typography sx={{ mb: 2 }}>These are the screens your roles open:</Typography>
          {groups.map(({ group, routes }) => {
            const headingId = `home-group-${group.replace(/\s+/g, '-').toLowerCase()}`;
            return (
              <Box component="section" key={group} aria-labelledby={headingId} sx={{ mb: 2 }}>
                <Typography id={headingId} variant="subtitle1" component="h3">
                  {group}
                </Typography>
                <List dense disablePadding>
                  {routes.map((route) => (
                    <ListItem key={route.id}>
                      <Link component={RouterLink} to={route.path}>
                        {route.label}
                      </Link>
                    </ListItem>
                  ))}
                </List>
              </Box>
            );
          })}
        </>
      )}
    </Box>
  );
}
