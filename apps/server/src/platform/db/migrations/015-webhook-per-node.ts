import { sql, type Kysely } from 'kysely';

/**
 * Webhook deliveries are recorded by the nodes that have a webhook, each by its own
 * configuration: a node's connections say `loopdesk.webhook_deliveries = on` when it has
 * `ASSISTANT_WEBHOOK_URL` (openDatabase), and the trigger drops a delivery row written on a
 * connection that does not. Before, a one-row table said it for the whole cluster, and the last
 * node to start decided for all (014-webhook-target).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function webhook_deliveries_only_when_enabled() returns trigger language plpgsql as $$
    begin
      if current_setting('loopdesk.webhook_deliveries', true) = 'on' then
        return new;
      end if;
      return null;
    end $$;
    drop table webhook_target;
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(new Error('015-webhook-per-node cannot be rolled back.'));
}
