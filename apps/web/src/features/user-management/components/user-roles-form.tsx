import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ROLES, ROLE_LABELS, type Role } from '@loopdesk/contracts/privileges.ts';
import type { ManagedUser } from '@loopdesk/contracts/users.ts';

export interface UserRolesFormProps {
  readonly user: ManagedUser;
  readonly saving: boolean;
  readonly onSave: (roles: Role[]) => void;
}

/**
 * A user's role checkboxes and Save (spec 3 §2, §6). Every role is offered, `experimental` too
 * (spec 1 §6 has it; 3 §6 does not list it), so saving never drops a role the screen hides.
 */
export function UserRolesForm({ user, saving, onSave }: UserRolesFormProps) {
  const [roles, setRoles] = useState<readonly Role[]>(user.customClaims.roles);
  const toggle = (role: Role, on: boolean) =>
    setRoles((current) => (on ? [...current, role] : current.filter((r) => r !== role)));
  const changed =
    roles.length !== user.customClaims.roles.length ||
    roles.some((role) => !user.customClaims.roles.includes(role));
  return (
    <Box
      component="form"
      aria-label={`Roles of ${user.email}`}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(ROLES.filter((role) => roles.includes(role)));
      }}
    >
      <Typography variant="h6" component="h2">
        {user.displayName ?? user.email}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 1 }}>
        {user.email} · {user.uid}
      </Typography>
      <FormLabel component="legend">Roles</FormLabel>
      <FormGroup row>
        {ROLES.map((role) => (
          <FormControlLabel
            key={role}
            label={ROLE_LABELS[role]}
            control={
              <Checkbox
                checked={roles.includes(role)}
                onChange={(event) => toggle(role, event.target.checked)}
              />
            }
          />
        ))}
      </FormGroup>
      {roles.length === 0 ? (
        <Alert severity="info" sx={{ my: 1 }}>
          With no role, {user.email} sees only &lsquo;No access yet&rsquo; after signing in.
        </Alert>
      ) : null}
      <Button type="submit" variant="contained" disabled={saving || !changed} sx={{ mt: 1 }}>
        Save
      </Button>
    </Box>
  );
}
