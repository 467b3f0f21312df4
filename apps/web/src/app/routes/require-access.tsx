import { canAccess, type Access } from '@loopdesk/contracts/privileges.ts';
import type { ReactNode } from 'react';
import { PlainPage } from '../../components/plain-page.tsx';
import { useCurrentUser } from '../../lib/auth/use-current-user.ts';
import { usePageTitle } from '../../lib/page-title.ts';

export const NO_ACCESS_MESSAGE = 'You do not have access to this screen.';

function NoAccessPage({ title }: { title: string }) {
  usePageTitle(title);
  return <PlainPage message={NO_ACCESS_MESSAGE} />;
}

interface RequireAccessProps {
  access: Access;
  title: string;
  children: ReactNode;
}

/** A screen whose privilege the user lacks shows a plain refusal (its drawer link is hidden too). */
export function RequireAccess({ access, title, children }: RequireAccessProps) {
  const user = useCurrentUser();
  if (!user || !canAccess(user.permissions.roles, access)) {
    return <NoAccessPage title={title} />;
  }
  return children;
}
