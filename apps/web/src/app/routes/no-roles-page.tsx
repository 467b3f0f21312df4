import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { Me } from '@loopdesk/contracts/users.ts';
import { useLogout } from '../../lib/auth/use-logout.ts';

/** A signed-in user whose account holds no role yet: nothing of the portal is shown. */
export function NoRolesPage({ user }: { user: Me }) {
  const logout = useLogout();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
      }}
    >
      <Box sx={{ maxWidth: 520, display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography variant="h5" component="h1">
          No access yet
        </Typography>
        <Typography>
          Your account ({user.email}) has no roles yet. Ask an administrator to give you a role,
          then reload this page.
        </Typography>
        <Box>
          <Button variant="outlined" onClick={() => void logout()}>
            Logout
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
