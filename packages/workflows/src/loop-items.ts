import type { Database } from '@crm/db';
import { type Actor, MAX_LOOP_ITEMS, queryRecords, queryRecordsInput } from '@crm/domain';
import { StepError } from './errors.ts';

/** The items of a rendered FOR_EACH: its list, or the records of its query (at most 1,000). */
export async function loopItemsOf(
  db: Database,
  actor: Actor,
  rendered: Record<string, unknown>,
): Promise<unknown[]> {
  if (rendered.records !== undefined) {
    const query = queryRecordsInput.parse({ ...(rendered.records as object), pageSize: 200, count: true });
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await queryRecords(db, actor, { ...query, ...(cursor ? { cursor } : {}) });
      const total = (page.meta as { total?: number }).total;
      if (total !== undefined && total > MAX_LOOP_ITEMS)
        throw new StepError(`FOR_EACH would go through ${total} records; at most ${MAX_LOOP_ITEMS}`, true);
      items.push(...page.data);
      const next = (page.meta as { nextCursor?: string | null }).nextCursor;
      if (!next || items.length >= MAX_LOOP_ITEMS) return items.slice(0, MAX_LOOP_ITEMS);
      cursor = next;
    }
  }
  const items = rendered.items;
  if (!Array.isArray(items)) {
    const got = items === null || items === undefined ? 'nothing' : typeof items;
    throw new StepError(`items rendered to ${got}, not a list`, true);
  }
  if (items.length > MAX_LOOP_ITEMS)
    throw new StepError(`FOR_EACH would go through ${items.length} items; at most ${MAX_LOOP_ITEMS}`, true);
  return items;
}
