import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { findRuns, pruneRuns, queueRun } from './runs.ts';
import { createWorkflow } from './save-workflow.ts';
import { createWorkflowInput } from './schemas.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

describe('run history', () => {
  it('keeps runs 30 days, then prunes them', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await createWorkflow(
      t.db,
      actor,
      createWorkflowInput.parse({
        name: 'Flow',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [{ type: 'CONDITION', left: 1, operator: 'EXISTS' }],
      }),
      { baseUrl: '', checkOutboundUrl: async () => {} },
    );
    const queue = () =>
      queueRun(t.db, {
        workspaceId: actor.workspaceId,
        workflowId: workflow.id,
        trigger: 'INCOMING_WEBHOOK',
        input: {},
        recordId: null,
        actions: workflow.actions,
      });
    const old = await queue();
    const recent = await queue();
    await t.query("update workflow_runs set created_at = now() - interval '31 days' where id = $1", [old]);
    await t.query("update workflow_runs set created_at = now() - interval '29 days' where id = $1", [recent]);
    expect(await pruneRuns(t.db)).toBeGreaterThanOrEqual(1);
    const left = await findRuns(t.db, actor, { id: workflow.id });
    expect(left.data.map((r) => r.id)).toEqual([recent]);
  });

  it('lists a workflow’s runs newest first, filtered by status, paged by cursor', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await createWorkflow(
      t.db,
      actor,
      createWorkflowInput.parse({
        name: 'Flow',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [{ type: 'CONDITION', left: 1, operator: 'EXISTS' }],
      }),
      { baseUrl: '', checkOutboundUrl: async () => {} },
    );
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        await queueRun(t.db, {
          workspaceId: actor.workspaceId,
          workflowId: workflow.id,
          trigger: 'INCOMING_WEBHOOK',
          input: { i },
          recordId: null,
          actions: workflow.actions,
        }),
      );
    }
    await t.query("update workflow_runs set status = 'FAILED' where id = $1", [ids[1]]);
    const first = await findRuns(t.db, actor, { id: workflow.id, pageSize: 2 });
    expect(first.data.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const second = await findRuns(t.db, actor, {
      id: workflow.id,
      pageSize: 2,
      cursor: first.meta.nextCursor!,
    });
    expect(second.data.map((r) => r.id)).toEqual([ids[0]]);
    const failed = await findRuns(t.db, actor, { id: workflow.id, status: 'FAILED' });
    expect(failed.data.map((r) => r.id)).toEqual([ids[1]]);
    const other = await newWorkspace(t.db, 'Other');
    await expect(findRuns(t.db, other.actor, { id: workflow.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
