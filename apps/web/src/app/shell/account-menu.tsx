import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { Me } from '@loopdesk/contracts/users.ts';
import { useState } from 'react';
import { useLogout } from '../../lib/auth/use-logout.ts';

/** The account button (avatar and display name, or email) with its Logout item. */
export function AccountMenu({ user }: { user: Me }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const logout = useLogout();
  const name = user.displayName ?? user.email;

  return (
    <>
      <Button
        color="inherit"
        aria-haspopup="menu"
        aria-controls={anchor ? 'account-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={
          <Avatar
            src={user.photoURL ?? undefined}
            alt=""
            aria-hidden="true"
            sx={{ width: 28, height: 28 }}
          >
            {name.charAt(0).toUpperCase()}
          </Avatar>
        }
        sx={{ textTransform: 'none', ml: 1 }}
      >
        {name}
      </Button>
      <Menu
        id="account-menu"
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
        >
          Logout
        </MenuItem>
      </Menu>
    </>
  );
}
