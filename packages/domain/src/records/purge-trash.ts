import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { lt, sql } from 'drizzle-orm';
import { appendAudit } from '../audit/append-audit.ts';
import { deleteLinksOf, forgetLinksOf } from '../relations/trash-links.ts';
import { systemProvenance } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';

/** Records stay in Trash this long before the scheduled purge removes them. */
export const TRASH_RETENTION_DAYS = 30;

/**
 * Permanently removes records that have been in Trash longer than the retention, in batches
 * so a large Trash never holds long locks. Deals and tasks whose primary record it was lose
 * their `recordId`; comments, calls and every link (to records, deals and tasks) go with it. Runs across all workspaces (a scheduled job).
 */
export async function purgeTrash(db: Database, options: { olderThanDays?: number; batchSize?: number } = {}) {
  const days = options.olderThanDays ?? TRASH_RETENTION_DAYS;
  const batchSize = options.batchSize ?? 500;
  let purged = 0;
  for (;;) {
    const removed = await db.transaction(async (tx) => {
      const r = schema.records;
      const doomed = await tx
        .select({ workspaceId: r.workspaceId, folderId: r.folderId, id: r.id })
        .from(r)
        .where(lt(r.trashedAt, sql`now() - make_interval(days => ${days})`))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (doomed.length === 0) return 0;
      const ids = doomed.map((d) => d.id);
      // The ONE values naming them go first, while their links still say who names them.
      const byFolder = new Map<string, typeof doomed>();
      for (const d of doomed) {
        const key = `${d.workspaceId} ${d.folderId}`;
        byFolder.set(key, [...(byFolder.get(key) ?? []), d]);
      }
      for (const group of byFolder.values()) {
        const { workspaceId, folderId } = group[0] ?? missing('group[0]');
        const groupIds = group.map((d) => d.id);
        await forgetLinksOf(tx, workspaceId, folderId, groupIds);
        await deleteLinksOf(tx, workspaceId, folderId, groupIds);
      }
      await tx.execute(sql`update deals set record_id = null where record_id in ${ids}`);
      await tx.execute(sql`update tasks set record_id = null where record_id in ${ids}`);
      await tx.execute(sql`delete from records where id in ${ids}`);
      // A record's history is kept as long as the record (docs/api.md, "History and provenance").
      await tx.execute(sql`delete from history where subject_id in ${ids}`);
      const perWorkspace = new Map<string, number>();
      for (const d of doomed) perWorkspace.set(d.workspaceId, (perWorkspace.get(d.workspaceId) ?? 0) + 1);
      for (const [workspaceId, count] of perWorkspace) {
        await appendAudit(tx, workspaceId, systemProvenance('purge_trash'), {
          action: 'records.purged',
          details: { count, olderThanDays: days },
        });
      }
      return doomed.length;
    });
    purged += removed;
    if (removed < batchSize) return purged;
  }
}
