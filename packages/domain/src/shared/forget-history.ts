import { type Executor, runNamedSql } from '@crm/db';
import { sql } from 'drizzle-orm';

/**
 * History is kept as long as its subject (docs/api.md, "History and provenance"): a deal or
 * task deleted for good takes its history along, in the same transaction.
 */
export async function forgetHistory(tx: Executor, workspaceId: string, subjectId: string): Promise<void> {
  await runNamedSql(
    tx,
    'forget_history',
    sql`delete from history where workspace_id = ${workspaceId} and subject_id = ${subjectId}`,
  );
}
