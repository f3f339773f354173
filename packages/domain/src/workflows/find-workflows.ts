import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import type { DomainServices } from '../shared/services.ts';
import type { findWorkflowsInput } from './schemas.ts';
import { serializeWorkflow, type WorkflowRow } from './serialize.ts';

/** A workflow of the actor's workspace; a malformed id or another workspace's is a 404. */
export async function loadWorkflow(
  tx: Executor,
  actor: Pick<Actor, 'workspaceId'>,
  id: string,
  options: { lock?: 'update' | 'share' } = {},
): Promise<WorkflowRow> {
  return loadInWorkspace(tx, schema.workflows, actor.workspaceId, id, {
    kind: 'workflow',
    name: 'Workflow',
    ...options,
  });
}

/** A page of the workspace's workflows, newest first. */
export async function findWorkflows(
  db: Database,
  actor: Actor,
  input: z.infer<typeof findWorkflowsInput>,
  services: Pick<DomainServices, 'baseUrl'>,
) {
  const paging = resolvePaging(input);
  const w = schema.workflows;
  const rows = await db
    .select()
    .from(w)
    .where(and(eq(w.workspaceId, actor.workspaceId), afterCursor(w.createdAt, w.id, paging, 'desc')))
    .orderBy(...keysetOrder(w.createdAt, w.id, 'desc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  return toPage(rows, paging, (row) => serializeWorkflow(row, services.baseUrl));
}
