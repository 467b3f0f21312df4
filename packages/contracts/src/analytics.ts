import { z } from 'zod';

/**
 * The analytics dashboard (spec 3 §2 "Analytics dashboard", §3 "Dashboard response", §7): a
 * full-size embedded page whose address the server gives.
 */

/** Dashboard response (spec 3 §3), the answer of `GET /internal/analytics/dashboard`: `{url}`. */
export const DashboardResponse = z.object({
  url: z.string().min(1).describe('the address of the page to embed'),
});
export type DashboardResponse = z.infer<typeof DashboardResponse>;
