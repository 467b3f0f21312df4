import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { ROLE_LABELS } from '@loopdesk/contracts/privileges.ts';
import type { UsersListResponse } from '@loopdesk/contracts/users.ts';

export interface UsersTableProps {
  readonly data: UsersListResponse;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
  readonly onEdit: (email: string) => void;
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Every user, a page at a time, with their roles and last sign-in (issue 15). */
export function UsersTable({ data, onPage, onSize, onEdit }: UsersTableProps) {
  return (
    <>
      <Table size="small" aria-label="Users">
        <TableHead>
          <TableRow>
            <TableCell>Email</TableCell>
            <TableCell>Name</TableCell>
            <TableCell>Roles</TableCell>
            <TableCell>Last sign-in</TableCell>
            <TableCell>Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.items.map((user) => (
            <TableRow key={user.uid}>
              <TableCell>{user.email}</TableCell>
              <TableCell>{user.displayName ?? ''}</TableCell>
              <TableCell>
                {user.customClaims.roles.map((role) => ROLE_LABELS[role]).join(', ') || 'none'}
              </TableCell>
              <TableCell>
                {user.lastSignInAt ? when.format(new Date(user.lastSignInAt)) : 'never'}
              </TableCell>
              <TableCell>
                <Button
                  size="small"
                  aria-label={`Edit roles of ${user.email}`}
                  onClick={() => onEdit(user.email)}
                >
                  Edit
                </Button>
              </TableCell>
            </TableRow>
          ))}
          {data.items.length === 0 ? (
            <TableRow>
              <TableCell colSpan={5}>No users match.</TableCell>
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data.total}
        page={data.page}
        rowsPerPage={data.size}
        rowsPerPageOptions={[10, 20, 50, 100]}
        onPageChange={(_event, page) => onPage(page)}
        onRowsPerPageChange={(event) => onSize(Number(event.target.value))}
      />
    </>
  );
}
