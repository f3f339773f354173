import { isSharded } from '@crm/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createWorkflow } from './create-workflow.ts';
import { findRuns } from './find-runs.ts';
import { pruneRuns } from './prune-runs.ts';
import { queueRun } from './queue-run.ts';
import { createWorkflowInput } from './schemas.ts';
import { waitingRoom } from './waiting-room.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const oneStepWorkflow = (actor: Actor) =>
  createWorkflow(
    t.db,
    actor,
    createWorkflowInput.parse({
      name: 'Flow',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CONDITION', left: 1, operator: 'EXISTS' }],
    }),
    { baseUrl: '', checkOutboundUrl: async () => {} },
  );

const queueOne = async (
  actor: Actor,
  workflow: { id: string; actions: Record<string, unknown>[] },
  input: unknown,
) =>
  queueRun(
    t.db,
    {
      workspaceId: actor.workspaceId,
      workflowId: workflow.id,
      trigger: 'INCOMING_WEBHOOK',
      input,
      recordId: null,
      actions: workflow.actions,
    },
    await isSharded(t.db),
  );

describe('run history', () => {
  it('keeps runs 30 days after they end, and a waiting run until it ends', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await oneStepWorkflow(actor);
    const old = await queueOne(actor, workflow, {});
    const recent = await queueOne(actor, workflow, {});
    const waiting = await queueOne(actor, workflow, {});
    const forgotten = await queueOne(actor, workflow, {});
    await t.query(
      "update workflow_runs set status = 'SUCCEEDED', created_at = now() - interval '31 days', finished_at = now() - interval '31 days' where id = $1",
      [old],
    );
    await t.query(
      "update workflow_runs set status = 'FAILED', created_at = now() - interval '40 days', finished_at = now() - interval '29 days' where id = $1",
      [recent],
    );
    await t.query(
      "update workflow_runs set status = 'WAITING', created_at = now() - interval '200 days' where id = $1",
      [waiting],
    );
    await t.query(
      "update workflow_runs set status = 'WAITING', created_at = now() - interval '401 days' where id = $1",
      [forgotten],
    );
    expect(await pruneRuns(t.db)).toBeGreaterThanOrEqual(2);
    const left = await findRuns(t.db, actor, { id: workflow.id });
    expect(left.data.map((r) => r.id).sort()).toEqual([recent, waiting].sort());
  });

  it('lists a workflow’s runs newest first, filtered by status, paged by cursor', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await oneStepWorkflow(actor);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await queueOne(actor, workflow, { i }));
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

  it('refuses new runs with 429 while a workspace has as many runs waiting as it may', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await oneStepWorkflow(actor);
    const room = waitingRoom(t.db, 2);
    await room(actor.workspaceId);
    for (let i = 0; i < 2; i++) {
      const id = await queueOne(actor, workflow, {});
      await t.query("update workflow_runs set status = 'WAITING' where id = $1", [id]);
    }
    // Counted again by a room of its own (each keeps its count 10 s).
    const full = waitingRoom(t.db, 2);
    const refused = await expectDomainError(full(actor.workspaceId), 'RATE_LIMITED');
    expect(refused.message).toContain('2 runs waiting');
    expect(refused.retryAfterSeconds).toBe(60);
    const other = await newWorkspace(t.db, 'Other');
    await full(other.actor.workspaceId);
  });
});
