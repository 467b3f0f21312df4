import { canAccess } from '@loopdesk/contracts/privileges.ts';
import {
  DRAWER_GROUPS,
  PORTAL_ROUTES,
  type DrawerGroup,
  type PortalRoute,
} from '@loopdesk/contracts/portal-routes.ts';

/** A screen with a drawer link: it has a label and a group. */
export type NavRoute = PortalRoute & { readonly label: string; readonly group: DrawerGroup };

function isNavRoute(route: PortalRoute): route is NavRoute {
  return route.label !== undefined && route.group !== undefined;
}

/** Every drawer link, in table order. */
export const NAV_ROUTES: readonly NavRoute[] = (PORTAL_ROUTES as readonly PortalRoute[]).filter(
  isNavRoute,
);

export interface NavGroup {
  readonly group: DrawerGroup;
  /** The links of the group that the roles may open (hidden links are left out). */
  readonly routes: readonly NavRoute[];
}

/** The drawer groups in DRAWER_GROUPS order, each with the links `roles` may open. */
export function navGroupsFor(roles: readonly string[]): NavGroup[] {
  return DRAWER_GROUPS.map((group) => ({
    group,
    routes: NAV_ROUTES.filter((route) => route.group === group && canAccess(roles, route.access)),
  }));
}
