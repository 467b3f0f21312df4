import { expect, type Locator, type Page } from '@playwright/test';
import { canAccess } from '@loopdesk/contracts/privileges.ts';
import {
  DRAWER_GROUPS,
  PORTAL_ROUTES,
  type DrawerGroup,
  type PortalRoute,
} from '@loopdesk/contracts/portal-routes.ts';

/** The drawer's navigation landmark (not the home page, which lists the same links). */
export function navigation(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** The group headers of the drawer: buttons that expand and collapse a group. */
function groupHeaders(nav: Locator, expanded?: boolean): Locator {
  return nav.getByRole('button', expanded === undefined ? {} : { expanded });
}

/** Expands every collapsed group of the drawer by clicking its header. */
export async function expandAllGroups(page: Page): Promise<void> {
  const nav = navigation(page);
  const collapsed = groupHeaders(nav, false);
  // Each click removes one header from `collapsed`; the count bounds the loop.
  for (let left = await collapsed.count(); left > 0; left -= 1) {
    await collapsed.first().click();
  }
  await expect(collapsed).toHaveCount(0);
}

/** Names of the drawer's group headers and links that are visible now, each list sorted. */
export async function visibleDrawerEntries(
  page: Page,
): Promise<{ groups: string[]; links: string[] }> {
  const nav = navigation(page);
  const names = async (locator: Locator) =>
    (await locator.allInnerTexts()).map((text) => text.trim()).sort();
  return { groups: await names(groupHeaders(nav)), links: await names(nav.getByRole('link')) };
}

/** The drawer entries that `roles` should see, computed from PORTAL_ROUTES and canAccess. */
export function expectedDrawerEntries(roles: readonly string[]): {
  groups: string[];
  links: string[];
} {
  const open: { label: string; group: DrawerGroup }[] = (
    PORTAL_ROUTES as readonly PortalRoute[]
  ).flatMap(({ label, group, access }) =>
    label !== undefined && group !== undefined && canAccess(roles, access)
      ? [{ label, group }]
      : [],
  );
  // A group shows when it has a link for the roles (issue 20 #25: not even Sysadmin otherwise).
  const groups = DRAWER_GROUPS.filter((group) => open.some((route) => route.group === group));
  return {
    groups: [...groups].sort(),
    links: open.map((route) => route.label).sort(),
  };
}
