import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecords, createRecordsInput } from '../records/create-records.ts';
import { updateRecord } from '../records/update-record.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createUpdateJob } from './create-update-job.ts';
import { getJob } from './get-job.ts';
import { readJobResults } from './read-job-results.ts';
import { revertJob } from './revert-job.ts';
import { runJob } from './run-job.ts';
import type { JobOutput } from './schemas.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

async function runToEnd(workspaceId: string, id: string) {
  for (let turn = 0; turn < 50; turn++) {
    await runJob(t.db, { workspaceId, id });
    const [row] = await t.query<{ status: string }>('select status from jobs where id = $1', [id]);
    if (row && !['QUEUED', 'RUNNING'].includes(row.status)) return row.status;
  }
  throw new Error('the job did not end');
}

async function resultsOf(ws: Awaited<ReturnType<typeof newWorkspace>>, id: string) {
  const file = await readJobResults(t.db, ws.actor, { id });
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function seed(ws: Awaited<ReturnType<typeof newWorkspace>>, count: number) {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const items = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
      folderId: ws.peopleFolderId,
      title: `P${start + i}`,
      data: { lifecycle: (start + i) % 2 === 0 ? 'Lead' : 'Customer' },
    }));
    const outcomes = await createRecords(t.db, ws.actor, createRecordsInput.parse({ items }));
    for (const o of outcomes) if (o.ok) ids.push(o.data.id);
  }
  return ids;
}

describe('an update job', () => {
  it('counts the matches on a dry run, then changes each record that matched when it started, and a revert sets back only what was not changed since', async () => {
    const ws = await newWorkspace(t.db);
    const ids = await seed(ws, 1_203);
    const leads = { field: 'data.lifecycle', value: 'Lead' };
    const dry = await createUpdateJob(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      filter: leads,
      set: { data: { lifecycle: 'Prospect', company: 'Moved' } },
      dryRun: true,
    });
    expect(dry).toEqual({ matched: 602 });
    const job = (await createUpdateJob(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      filter: leads,
      set: { data: { lifecycle: 'Prospect', company: 'Moved' } },
    })) as JobOutput;
    expect(job).toMatchObject({ type: 'UPDATE', status: 'QUEUED' });
    expect(await runToEnd(ws.actor.workspaceId, job.id)).toBe('SUCCEEDED');
    expect((await getJob(t.db, ws.actor, { id: job.id })).progress).toMatchObject({
      rowsRead: 602,
      updated: 602,
      total: 602,
    });
    const prospects = await t.query<{ n: number }>(
      "select count(*)::int as n from records where workspace_id = $1 and data->>'lifecycle' = 'Prospect' and data->>'company' = 'Moved'",
      [ws.actor.workspaceId],
    );
    expect(prospects[0]?.n).toBe(602);
    const history = await t.query<{ n: number }>(
      "select count(*)::int as n from history where workspace_id = $1 and actor_type = 'job' and actor_id = $2",
      [ws.actor.workspaceId, job.id],
    );
    expect(history[0]?.n).toBe(602 * 2);

    // Someone changes one record's lifecycle after the job: the revert leaves that field.
    const touched = ids[0]!;
    await updateRecord(t.db, ws.actor, { id: touched, data: { lifecycle: 'Churned' } });
    const revert = await revertJob(t.db, ws.actor, { id: job.id });
    expect(await runToEnd(ws.actor.workspaceId, revert.id)).toBe('SUCCEEDED');
    const lines = await resultsOf(ws, revert.id);
    expect(lines).toHaveLength(602);
    const ofTouched = lines.find((line) => line.recordId === touched);
    expect(ofTouched).toMatchObject({
      status: 'updated',
      setBack: ['data.company'],
      left: ['data.lifecycle'],
    });
    const after = await t.query<{ id: string; lifecycle: string; company: string | null }>(
      "select id, data->>'lifecycle' as lifecycle, data->>'company' as company from records where workspace_id = $1",
      [ws.actor.workspaceId],
    );
    expect(after.filter((r) => r.lifecycle === 'Lead')).toHaveLength(601);
    expect(after.find((r) => r.id === touched)).toMatchObject({ lifecycle: 'Churned', company: null });
    expect(after.filter((r) => r.company === 'Moved')).toHaveLength(0);
    await expect(revertJob(t.db, ws.actor, { id: revert.id })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('moves every match to Trash, and its revert brings them back', async () => {
    const ws = await newWorkspace(t.db);
    await seed(ws, 40);
    const job = (await createUpdateJob(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      filter: { field: 'data.lifecycle', value: 'Customer' },
      trash: true,
    })) as JobOutput;
    expect(await runToEnd(ws.actor.workspaceId, job.id)).toBe('SUCCEEDED');
    const live = async () =>
      (
        await t.query<{ n: number }>(
          'select count(*)::int as n from records where workspace_id = $1 and trashed_at is null',
          [ws.actor.workspaceId],
        )
      )[0]?.n;
    expect(await live()).toBe(20);
    const revert = await revertJob(t.db, ws.actor, { id: job.id });
    expect(await runToEnd(ws.actor.workspaceId, revert.id)).toBe('SUCCEEDED');
    expect(await live()).toBe(40);
  });

  it('refuses a request with nothing to do, or both a change and Trash', async () => {
    const ws = await newWorkspace(t.db);
    await expect(createUpdateJob(t.db, ws.actor, { folderId: ws.peopleFolderId })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(
      createUpdateJob(t.db, ws.actor, { folderId: ws.peopleFolderId, set: { title: 'x' }, trash: true }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
