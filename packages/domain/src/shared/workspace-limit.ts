import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { DomainError } from './errors.ts';

/**
 * Refuses one more row of `table` in the workspace once it holds `max` (a 400 saying what to
 * do). Serialises creations per workspace so two at once cannot both pass the limit; NO KEY
 * UPDATE does not block the foreign-key checks of inserts elsewhere in the workspace.
 */
export async function assertWorkspaceLimit(
  tx: Executor,
  workspaceId: string,
  table: PgTable & { workspaceId: PgColumn },
  max: number,
  what: string,
): Promise<void> {
  await tx
    .select({ id: schema.workspaces.id })
    .from(schema.workspaces)
    .where(eq(schema.workspaces.id, workspaceId))
    .for('no key update');
  const [counted] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.workspaceId, workspaceId));
  if ((counted?.n ?? 0) >= max) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `A workspace may have at most ${max} ${what}; delete one first`,
    );
  }
}
