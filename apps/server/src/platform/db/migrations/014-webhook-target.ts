import { sql, type Kysely } from 'kysely';

/**
 * Webhook deliveries exist only while a webhook is configured. Every node says at start whether
 * it has one (`ASSISTANT_WEBHOOK_URL`, the same on every node); while none is, an event goes to
 * the outbox (the pull feed) alone: the trigger drops its delivery row, whichever writer inserts
 * it. Deliveries recorded earlier keep their state.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_target (
      singleton boolean primary key default true check (singleton),
      enabled boolean not null,
      updated_at timestamptz not null default now()
    );
    insert into webhook_target (enabled) values (false);

    create function webhook_deliveries_only_when_enabled() returns trigger language plpgsql as $$
    begin
      if coalesce((select enabled from webhook_target), false) then
        return new;
      end if;
      return null;
    end $$;
    create trigger webhook_deliveries_only_when_enabled before insert on webhook_deliveries
      for each row execute function webhook_deliveries_only_when_enabled();
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(new Error('014-webhook-target cannot be rolled back.'));
}
