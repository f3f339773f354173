import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { eq, sql } from 'drizzle-orm';
import { changeAuth } from '../api-keys/auth-changes.ts';

/**
 * Every row of a workspace, in one transaction: each table that has a `workspace_id`, deals
 * first (stages and records are theirs to name), then the workspace. Only for a sandbox, or a
 * sandbox being made that failed half-way.
 */
export async function deleteWorkspaceData(db: Database, workspaceId: string): Promise<void> {
  await changeAuth(db, { workspaceId }, async (tx) => {
    const tables = await tx.execute<{ table_name: string }>(sql`
      select table_name from information_schema.columns
       where table_schema = current_schema() and column_name = 'workspace_id'
         and table_name in (select table_name from information_schema.tables
                             where table_schema = current_schema() and table_type = 'BASE TABLE')
       order by table_name = 'deals' desc, table_name`);
    for (const { table_name } of tables.rows)
      await tx.execute(sql`delete from ${sql.identifier(table_name)} where workspace_id = ${workspaceId}`);
    await tx.delete(schema.workspaces).where(eq(schema.workspaces.id, workspaceId));
  });
}
