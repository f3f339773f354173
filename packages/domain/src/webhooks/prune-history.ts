import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';

/**
 * Events, deliveries and their attempts are kept 30 days (docs/webhooks.md, "Delivery, retries,
 * disabling", "The event feed").
 */
const HISTORY_DAYS = 30;

export async function pruneWebhookHistory(db: Database): Promise<{ deliveries: number; events: number }> {
  const deliveries = await db.execute(
    sql`delete from deliveries where created_at < now() - make_interval(days => ${HISTORY_DAYS})`,
  );
  // A delivery of an older event (a late redelivery) then finds no event and simply ends.
  const events = await db.execute(
    sql`delete from events where occurred_at < now() - make_interval(days => ${HISTORY_DAYS})`,
  );
  return { deliveries: deliveries.rowCount ?? 0, events: events.rowCount ?? 0 };
}
