import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useDeferredValue, useState } from 'react';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import { useToast } from '../../../components/toast-context.ts';
import { HttpError, errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useUser } from '../api/get-user.ts';
import { useUsersList } from '../api/list-users.ts';
import { useUpdateUserRoles } from '../api/update-user-roles.ts';
import { UserRolesForm } from '../components/user-roles-form.tsx';
import { UsersTable } from '../components/users-table.tsx';
import { SAVED_MESSAGE, SAVE_FAILED_MESSAGE, userNotFoundMessage } from '../messages.ts';

/**
 * /admin/user-management (spec 3 §2, §6, §8): search a user by email or id, tick their roles,
 * Save. Below it, every user with roles and last sign-in (issue 15), each a click from the form.
 */
export function UserManagementRoute() {
  usePageTitle('User Management');
  const toast = useToast();
  const [typed, setTyped] = useState('');
  const [key, setKey] = useState('');
  const user = useUser(key);
  const save = useUpdateUserRoles();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const list = useUsersList({ search: deferredSearch, page, size });

  const open = (value: string) => {
    setTyped(value);
    setKey(value.trim());
  };
  const onSave = (uid: string, roles: Role[]) =>
    save.mutate(
      { uid, roles },
      {
        onSuccess: () => toast.success(SAVED_MESSAGE),
        // The last administrator's 409 says what to do instead; any other failure is the spec's.
        onError: (error) =>
          toast.error(
            error instanceof HttpError && error.status === 409 && error.body
              ? `${SAVE_FAILED_MESSAGE} ${error.body.message}`
              : SAVE_FAILED_MESSAGE,
          ),
      },
    );
  const notFound = user.error instanceof HttpError && user.error.status === 404;

  return (
    <Box component="section" aria-label="User management">
      <Stack
        component="form"
        role="search"
        aria-label="Find a user"
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', mb: 2 }}
        onSubmit={(event) => {
          event.preventDefault();
          open(typed);
        }}
      >
        <TextField
          label="Email or id"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          size="small"
          sx={{ minWidth: 360 }}
        />
        <Button type="submit" variant="outlined" disabled={typed.trim() === ''}>
          Search
        </Button>
      </Stack>
      <Box aria-live="polite" sx={{ mb: 3 }}>
        {user.isFetching && !user.data ? <CircularProgress aria-label="Loading the user" /> : null}
        {notFound ? <Alert severity="warning">{userNotFoundMessage(key)}</Alert> : null}
        {user.isError && !notFound ? (
          <Alert severity="error">{errorMessage(user.error)}</Alert>
        ) : null}
        {user.data && key !== '' ? (
          <UserRolesForm
            // A fresh form for each user read, so the boxes start from what the server holds.
            key={`${user.data.uid}:${user.data.customClaims.roles.join()}`}
            user={user.data}
            saving={save.isPending}
            onSave={(roles) => user.data && onSave(user.data.uid, roles)}
          />
        ) : null}
      </Box>
      <Divider sx={{ mb: 2 }} />
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        All users
      </Typography>
      <TextField
        label="Filter users"
        type="search"
        size="small"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setPage(0);
        }}
        sx={{ mb: 1, minWidth: 360 }}
      />
      {list.isPending ? (
        <CircularProgress aria-label="Loading users" />
      ) : list.isError ? (
        <Alert severity="error">{errorMessage(list.error)}</Alert>
      ) : (
        <UsersTable
          data={list.data}
          onPage={setPage}
          onSize={(next) => {
            setSize(next);
            setPage(0);
          }}
          onEdit={open}
        />
      )}
    </Box>
  );
}
