import type { Executor } from '@crm/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { notFound } from './errors.ts';
import { type IdKind, isId } from './ids.ts';

/** A table of rows keyed by (workspace_id, id), as every workspace's table is. */
export type WorkspaceTable = PgTable & { workspaceId: PgColumn; id: PgColumn };

export interface LoadInWorkspaceOptions {
  /** The kind of id the table holds (a malformed id or one of another kind is not found). */
  kind: IdKind;
  /** What the 404 calls the row: `${name} ${id} not found`. */
  name: string;
  /** A lock on the row for the rest of the transaction. */
  lock?: 'update' | 'share';
  /**
   * A further condition the row must meet to be found (not trashed, the caller's own). It is
   * checked on the row the primary key finds, not given to the planner as a condition to
   * search by (see loadInWorkspace).
   */
  where?: SQL;
}

/**
 * The row `id` of `table` in the workspace, or NOT_FOUND (`${name} ${id} not found`, docs/api.md
 * "Requests and responses") for an id of the wrong shape, another workspace's row, or one the
 * `where` condition leaves out. The loaders of single resources (loadDeal, loadTask,
 * loadWorkflow, …) are this with their table, kind and name.
 *
 * The statement searches by the primary key alone and reads `where` as a column of the row
 * found: a condition in the WHERE clause such as `trashed_at is null` makes the partial
 * indexes of the lists (workspace, then a sort key, then id) candidates too, and when the
 * planner's statistics do not know the workspace yet (filled since the last ANALYZE) it may
 * take one of them and read every entry of the workspace to find one row (docs/performance.md,
 * "Lookups by id").
 */
export async function loadInWorkspace<T extends WorkspaceTable>(
  db: Executor,
  table: T,
  workspaceId: string,
  id: string,
  options: LoadInWorkspaceOptions,
): Promise<T['$inferSelect']> {
  if (!isId(options.kind, id)) throw notFound(options.name, id);
  const byKey = and(eq(table.workspaceId, workspaceId), eq(table.id, id));
  if (!options.where) {
    const query = db
      .select()
      .from(table as PgTable)
      .where(byKey);
    const [row] = await (options.lock ? query.for(options.lock) : query);
    if (!row) throw notFound(options.name, id);
    return row as T['$inferSelect'];
  }
  const query = db
    .select({ row: table as PgTable, kept: sql<boolean>`coalesce(${options.where}, false)` })
    .from(table as PgTable)
    .where(byKey);
  const [found] = await (options.lock ? query.for(options.lock) : query);
  if (!found?.kept) throw notFound(options.name, id);
  return found.row as T['$inferSelect'];
}
