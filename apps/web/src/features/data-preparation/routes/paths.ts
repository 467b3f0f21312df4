import { PATHS } from '@loopdesk/contracts/portal-routes.ts';

/** A path of the route table with its `:id` filled. */
export const fillPortalPath = (path: string, id: string) =>
  path.replace(':id', encodeURIComponent(id));

export { PATHS };
