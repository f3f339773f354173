import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import { loadWorkflow } from './find-workflows.ts';
import type { findRunsInput } from './schemas.ts';
import { serializeRuns } from './serialize.ts';

/** A workflow's runs, newest first, optionally of one status. */
export async function findRuns(db: Database, actor: Actor, input: z.infer<typeof findRunsInput>) {
  const workflow = await loadWorkflow(db, actor, input.id);
  const paging = resolvePaging(input);
  const r = schema.workflowRuns;
  const rows = await db
    .select()
    .from(r)
    .where(
      and(
        eq(r.workspaceId, actor.workspaceId),
        eq(r.workflowId, workflow.id),
        input.status ? eq(r.status, input.status) : undefined,
        afterCursor(r.createdAt, r.id, paging, 'desc'),
      ),
    )
    .orderBy(...keysetOrder(r.createdAt, r.id, 'desc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  const page = toPage(rows, paging, (row) => row);
  return { ...page, data: await serializeRuns(db, actor.workspaceId, page.data) };
}
