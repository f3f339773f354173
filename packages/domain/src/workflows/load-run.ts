import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import type { RunRow } from './serialize.ts';

export async function loadRun(tx: Executor, actor: Pick<Actor, 'workspaceId'>, id: string): Promise<RunRow> {
  if (!isId('run', id)) throw notFound('Run', id);
  const r = schema.workflowRuns;
  const [row] = await tx
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, id)));
  if (!row) throw notFound('Run', id);
  return row;
}
