import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { searchSignature } from '../shared/search-signature.ts';

const r = schema.records;
/** A record with a long search text and no signature: what `records_search_unsigned_idx` holds. */
const unsigned = and(isNull(r.searchLower), isNull(r.searchSignature));
/**
 * The order of `records_search_unsigned_idx`, which no other index gives: asked in that order,
 * PostgreSQL reads that index (empty once every record is signed), never the table.
 */
const byIndex = sql`${schema.searchWorkspace(r.workspaceId)}, ${r.id}`;

/**
 * Writes the signature of up to `limit` records that have a long search text and none
 * (shared/search-signature.ts): records written before migration 0028, and those whose text a
 * statement changed without one (a folder's fields changed, an earlier version during a
 * rolling upgrade), which the migration's trigger left without. Each is written only if its
 * text is still the one read, so a record changed meanwhile keeps what its writer gave it.
 * Nothing the API shows changes, `updated_at` included. Returns how many it read; 0 when none
 * is left.
 */
export async function signSearchTexts(db: Database, limit = 200): Promise<number> {
  const found = await db
    .select({ workspaceId: r.workspaceId, id: r.id, searchText: r.searchText })
    .from(r)
    .where(unsigned)
    .orderBy(byIndex)
    .limit(limit);
  for (const row of found) {
    await db
      .update(r)
      .set({ searchSignature: searchSignature(row.searchText) })
      .where(
        and(
          eq(r.workspaceId, row.workspaceId),
          eq(r.id, row.id),
          eq(r.searchText, row.searchText),
          isNull(r.searchSignature),
        ),
      );
  }
  return found.length;
}
