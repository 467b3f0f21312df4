import { useQuery } from '@tanstack/react-query';
import { IntentContextMenu } from '@loopdesk/contracts/workbench-payloads.ts';
import { callRoute } from '../../lib/api-client.ts';

/**
 * `GET /internal/quinn/intents/{intent}/_context_menu` with X-Tenant-ID (spec 1 §7): the intent's
 * menu and derived categories, from the assistant.
 */
export function getContextMenu(
  intent: string,
  tenant: string,
  signal?: AbortSignal,
): Promise<IntentContextMenu> {
  return callRoute('GET', '/internal/quinn/intents/:intent/_context_menu', {
    params: { intent },
    tenantId: tenant,
    schema: IntentContextMenu,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The context menu of the job's intent, or null while it loads, when the job names no intent or
 * tenant, and when the call fails: "a failure means no override" (spec 1 §7), so no error shows.
 */
export function useIntentContextMenu(
  intent: string | undefined,
  tenant: string | undefined,
): IntentContextMenu | null {
  const query = useQuery({
    queryKey: ['quinn', 'context-menu', tenant, intent],
    queryFn: ({ signal }) => getContextMenu(intent ?? '', tenant ?? '', signal),
    enabled: intent !== undefined && tenant !== undefined,
    retry: false,
    staleTime: 5 * 60_000,
  });
  return query.isSuccess ? query.data : null;
}
