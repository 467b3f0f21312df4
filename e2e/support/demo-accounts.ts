import type { Role } from '@loopdesk/contracts/privileges.ts';

/** A demo account of the development sign-in (DEMO=1), as the tests expect it to be seeded. */
export interface DemoAccount {
  readonly email: string;
  /** The account button in the top bar is named after it. */
  readonly displayName: string;
  readonly roles: readonly Role[];
  /**
   * Exactly what the drawer shows this account (spec 1 §2 Routes, §6), written out by hand so the
   * tests check the route table too: group headers, then links, each sorted.
   */
  readonly drawer: { readonly groups: readonly string[]; readonly links: readonly string[] };
}

/** The demo accounts and their roles; written out here so the tests check the seed, not copy it. */
export const DEMO_ACCOUNTS = [
  {
    email: 'admin@loopdesk.test',
    displayName: 'Ada Admin',
    roles: ['admin', 'sysadmin'],
    drawer: {
      groups: ['Admin', 'Sysadmin'],
      links: ['EMR Check', 'Redis', 'Session Management', 'User Management'],
    },
  },
  {
    email: 'medical@loopdesk.test',
    displayName: 'Meera Medical',
    roles: ['medical'],
    drawer: {
      groups: ['Conversations', 'Jobs', 'KG Workbench', 'Test'],
      links: [
        'Clinical Inference',
        'Clinical Summary',
        'Conversations Search',
        'Deep Link Generator',
        'Differential Diagnosis',
        'Direct Messaging',
        'Entity Recognition',
        'Exceptions',
        'Federated',
        'Inspect Knowledge Graph',
        'Push Broadcast',
        'Scheduling',
      ],
    },
  },
  {
    email: 'annotator@loopdesk.test',
    displayName: 'Ann Annotator',
    roles: ['annotator'],
    drawer: {
      groups: ['Jobs'],
      links: ['Async Jobs', 'Authoring Tasks', 'Clinical Summary', 'Federated'],
    },
  },
  {
    email: 'approver@loopdesk.test',
    displayName: 'Abe Approver',
    roles: ['approver'],
    drawer: { groups: ['Jobs'], links: ['Async Jobs'] },
  },
  {
    email: 'experimental@loopdesk.test',
    displayName: 'Eve Experimental',
    roles: ['experimental'],
    drawer: { groups: ['Jobs'], links: ['Clinical Summary', 'Data Preparation'] },
  },
  {
    email: 'lead@loopdesk.test',
    displayName: 'Lee Lead',
    roles: ['admin', 'medical', 'annotator', 'approver', 'sysadmin', 'experimental'],
    drawer: {
      groups: ['Admin', 'Conversations', 'Jobs', 'KG Workbench', 'Sysadmin', 'Test'],
      links: [
        'Async Jobs',
        'Authoring Tasks',
        'Clinical Inference',
        'Clinical Summary',
        'Conversations Search',
        'Data Preparation',
        'Deep Link Generator',
        'Differential Diagnosis',
        'Direct Messaging',
        'EMR Check',
        'Entity Recognition',
        'Exceptions',
        'Federated',
        'Inspect Knowledge Graph',
        'Push Broadcast',
        'Redis',
        'Scheduling',
        'Session Management',
        'User Management',
      ],
    },
  },
] as const satisfies readonly DemoAccount[];

export type DemoEmail = (typeof DEMO_ACCOUNTS)[number]['email'];

export function demoAccount(email: DemoEmail): DemoAccount {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.email === email);
  if (!account) {
    throw new Error(`${email} is not a demo account`);
  }
  return account;
}
