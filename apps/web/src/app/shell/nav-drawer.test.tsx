import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { canAccess, ROLES, type Role } from '@loopdesk/contracts/privileges.ts';
import { PORTAL_ROUTES, type PortalRoute } from '@loopdesk/contracts/portal-routes.ts';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NavDrawer } from './nav-drawer.tsx';

function renderDrawer(roles: readonly Role[], path = '/') {
  render(
    <MemoryRouter initialEntries={[path]}>
      <NavDrawer open roles={roles} serverVersion={undefined} />
    </MemoryRouter>,
  );
  return within(screen.getByRole('navigation', { name: 'Main navigation' }));
}

/** Opens every collapsed group, then lists group headers and link names in drawer order. */
async function everythingIn(nav: ReturnType<typeof renderDrawer>) {
  const user = userEvent.setup();
  for (const header of nav.queryAllByRole('button', { expanded: false })) {
    await user.click(header);
  }
  return {
    groups: nav.getAllByRole('button').map((button) => button.textContent),
    links: nav.getAllByRole('link').map((link) => link.textContent),
  };
}

describe('navigation drawer', () => {
  it('shows admin + sysadmin only the admin and sysadmin screens', async () => {
    const nav = renderDrawer(['admin', 'sysadmin']);
    expect(await everythingIn(nav)).toEqual({
      groups: ['Admin', 'Sysadmin'],
      links: ['User Management', 'Session Management', 'EMR Check', 'Redis'],
    });
  });

  it('shows medical staff jobs, tests, conversations and the knowledge graph', async () => {
    const nav = renderDrawer(['medical']);
    expect(await everythingIn(nav)).toEqual({
      groups: ['Jobs', 'Test', 'Conversations', 'KG Workbench'],
      links: [
        'Federated',
        'Exceptions',
        'Clinical Summary',
        'Entity Recognition',
        'Differential Diagnosis',
        'Clinical Inference',
        'Conversations Search',
        'Direct Messaging',
        'Push Broadcast',
        'Scheduling',
        'Deep Link Generator',
        'Inspect Knowledge Graph',
      ],
    });
  });

  it('shows annotators their four job screens', async () => {
    const nav = renderDrawer(['annotator']);
    expect(await everythingIn(nav)).toEqual({
      groups: ['Jobs'],
      links: ['Federated', 'Async Jobs', 'Clinical Summary', 'Authoring Tasks'],
    });
  });

  it('shows approvers the async jobs only', async () => {
    const nav = renderDrawer(['approver']);
    expect(await everythingIn(nav)).toEqual({
      groups: ['Jobs'],
      links: ['Async Jobs'],
    });
  });

  it('shows experimental users clinical summary and data preparation', async () => {
    const nav = renderDrawer(['experimental']);
    expect(await everythingIn(nav)).toEqual({
      groups: ['Jobs'],
      links: ['Clinical Summary', 'Data Preparation'],
    });
  });

  it('shows every screen to a user holding all roles', async () => {
    const nav = renderDrawer([
      'admin',
      'medical',
      'annotator',
      'approver',
      'sysadmin',
      'experimental',
    ]);
    expect(await everythingIn(nav)).toEqual({
      groups: ['Jobs', 'Test', 'Conversations', 'KG Workbench', 'Admin', 'Sysadmin'],
      links: [
        'Federated',
        'Exceptions',
        'Async Jobs',
        'Clinical Summary',
        'Data Preparation',
        'Authoring Tasks',
        'Entity Recognition',
        'Differential Diagnosis',
        'Clinical Inference',
        'Conversations Search',
        'Direct Messaging',
        'Push Broadcast',
        'Scheduling',
        'Deep Link Generator',
        'Inspect Knowledge Graph',
        'User Management',
        'Session Management',
        'EMR Check',
        'Redis',
      ],
    });
  });

  it.each([...ROLES.map((role) => [role, [role]] as const), ['no role', []] as const])(
    'for %s: links exactly the screens its privileges open, by the portal route table',
    async (_name, roles) => {
      const nav = renderDrawer(roles);
      const screens: readonly PortalRoute[] = PORTAL_ROUTES;
      const expected: string[] = screens.flatMap((route) =>
        route.label !== undefined && canAccess(roles, route.access) ? [route.label] : [],
      );
      const links = expected.length > 0 ? (await everythingIn(nav)).links : [];
      expect([...links].sort()).toEqual([...expected].sort());
      // A screen it cannot open has no link in the drawer at all.
      for (const route of screens.filter(
        (r) => r.label !== undefined && !canAccess(roles, r.access),
      )) {
        expect(nav.queryByRole('link', { name: route.label })).not.toBeInTheDocument();
      }
    },
  );

  it('opens Jobs by default and keeps the other groups collapsed', () => {
    const nav = renderDrawer(['medical']);
    expect(nav.getByRole('button', { name: 'Jobs' })).toHaveAttribute('aria-expanded', 'true');
    expect(nav.getByRole('link', { name: 'Federated' })).toHaveAttribute('href', '/jobs/federated');
    for (const group of ['Test', 'Conversations', 'KG Workbench']) {
      expect(nav.getByRole('button', { name: group })).toHaveAttribute('aria-expanded', 'false');
    }
    expect(nav.queryByRole('link', { name: 'Entity Recognition' })).not.toBeInTheDocument();
  });

  it('shows no group without a screen for the roles, not even Sysadmin (issue 20 #25)', () => {
    const nav = renderDrawer(['approver']);
    expect(nav.getAllByRole('button').map((button) => button.textContent)).toEqual(['Jobs']);
    expect(nav.queryByText('No screens for your roles')).not.toBeInTheDocument();
  });

  it('opens the group of the page the portal was opened on', () => {
    const nav = renderDrawer(['admin', 'sysadmin'], '/admin/system/redis');
    expect(nav.getByRole('button', { name: 'Sysadmin' })).toHaveAttribute('aria-expanded', 'true');
    expect(nav.getByRole('link', { name: 'Redis' })).toBeVisible();
  });

  it('collapses a group again when its header is clicked', async () => {
    const nav = renderDrawer(['annotator']);
    const user = userEvent.setup();
    await user.click(nav.getByRole('button', { name: 'Jobs' }));
    expect(nav.getByRole('button', { name: 'Jobs' })).toHaveAttribute('aria-expanded', 'false');
    expect(nav.queryByRole('link', { name: 'Federated' })).not.toBeInTheDocument();
  });

  it('shows the version id at the top', () => {
    const nav = renderDrawer(['annotator']);
    expect(nav.getByText('Version test')).toBeInTheDocument();
  });

  it('also opens the group of the screen the portal was opened on', () => {
    const nav = renderDrawer(['admin'], '/admin/user-management');
    expect(nav.getByRole('link', { name: 'User Management' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});
