import { loadStepRecords } from '@crm/domain';
import { newWorkspace, openTestDb, type TestDb } from '@crm/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRun } from './execute-run.ts';
import { loadRunWithActor } from './run-context.ts';
import { queueTestRun, testEngineOptions, workflowWith } from './testing/engine-fixtures.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t?.close();
});

describe('loadRunWithActor', () => {
  it('reads the step records in the same round trip as the run, as loadStepRecords reads them', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await workflowWith(t.db, actor, [
      {
        type: 'BRANCH',
        name: 'big',
        if: { left: '{{ trigger.body.n }}', operator: 'GREATER_THAN', right: 2 },
        then: [],
      },
      {
        type: 'FOR_EACH',
        items: '{{ trigger.body.list }}',
        actions: [{ type: 'CONDITION', left: '{{ item }}', operator: 'EXISTS' }],
      },
      { type: 'DELAY', for: 'PT1H' },
    ]);
    const id = await queueTestRun(t.db, actor, workflow.id, { n: 3, list: ['a', 'b'] });
    expect(await executeRun(t.db, { id, workspaceId: actor.workspaceId }, testEngineOptions)).toBe('waiting');

    // By id alone (a job queued by an earlier version) and with the workspace: the same run.
    const loaded = await loadRunWithActor(t.db, { id, workspaceId: actor.workspaceId });
    const byId = await loadRunWithActor(t.db, { id });
    if (!loaded || !byId) throw new Error('the run was not found');
    expect(byId.records).toEqual(loaded.records);
    expect(loaded.actor?.userId).toBe(actor.userId);
    expect(loaded.workflow.name).toBe('Flow');

    const selected = (await loadStepRecords(t.db, actor.workspaceId, [{ id, steps: [] }])).get(id);
    expect([...loaded.records.keys()]).toEqual(['0', '1', '1.items.0.0', '1.items.1.0', '2']);
    expect(loaded.records).toEqual(selected);
    const delay = loaded.records.get('2');
    expect(delay?.status).toBe('WAITING');
    expect(delay?.resumeAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(delay?.input).toEqual({ for: 'PT1H' });

    expect(
      await loadRunWithActor(t.db, { id: 'run_missing', workspaceId: actor.workspaceId }),
    ).toBeUndefined();
  });
});
