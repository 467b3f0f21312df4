import { useMutation } from '@tanstack/react-query';
import type { EmrTestResult } from '@loopdesk/contracts/system.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/experiment/health/_emr_test` with X-Tenant-ID (spec 1 §7, 3 §7). */
export function runEmrTest(tenant: string): Promise<EmrTestResult> {
  return callRoute('GET', '/internal/experiment/health/_emr_test', { tenantId: tenant.trim() });
}

/** The check is run on demand (a button), so it is a mutation: nothing is cached or retried. */
export function useEmrTest() {
  return useMutation({ mutationFn: runEmrTest });
}
