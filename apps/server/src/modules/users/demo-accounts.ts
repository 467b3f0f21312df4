import { ROLES, type Role } from '@loopdesk/contracts/privileges.ts';

/** The development sign-in's accounts, one per role, and a lead holding every role. */
export const DEMO_ACCOUNTS: readonly {
  email: string;
  displayName: string;
  roles: readonly Role[];
}[] = [
  { email: 'admin@loopdesk.test', displayName: 'Ada Admin', roles: ['admin', 'sysadmin'] },
  { email: 'medical@loopdesk.test', displayName: 'Meera Medical', roles: ['medical'] },
  { email: 'annotator@loopdesk.test', displayName: 'Ann Annotator', roles: ['annotator'] },
  { email: 'approver@loopdesk.test', displayName: 'Abe Approver', roles: ['approver'] },
  { email: 'experimental@loopdesk.test', displayName: 'Eve Experimental', roles: ['experimental'] },
  { email: 'lead@loopdesk.test', displayName: 'Lee Lead', roles: [...ROLES] },
];
