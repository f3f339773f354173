import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let pipeline: { id: string; stages: { id: string; name: string }[] };

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
  pipeline = (await app.api(ws.apiKey, 'GET', '/api/v1/pipelines')).body.data[0];
});
afterAll(() => app?.stop());

async function countRows(table: 'deals' | 'events' | 'stages') {
  const result = await app.service.db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where workspace_id = ${ws.workspaceId}`,
  );
  return result.rows[0]!.n;
}

describe('pipelines', () => {
  it('lists the default Sales pipeline with its stages in order and gets it by id', async () => {
    expect(pipeline).toMatchObject({ name: 'Sales' });
    expect(pipeline.stages.map((s) => s.name)).toEqual(['Lead', 'Qualified', 'Proposal', 'Won', 'Lost']);
    const one = await app.api(ws.apiKey, 'GET', `/api/v1/pipelines/${pipeline.id}`);
    expect(one.body.data).toEqual(pipeline);
    expect((await app.api(ws.apiKey, 'GET', '/api/v1/pipelines/pl_nope')).status).toBe(404);
  });

  it('creates, renames, adds, renames, reorders and removes stages', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/pipelines', {
      name: 'Hiring',
      stages: ['Applied', 'Interview'],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const [applied, interview] = created.body.data.stages;
    const renamed = await app.api(ws.apiKey, 'PATCH', `/api/v1/pipelines/${id}`, { name: 'Recruiting' });
    expect(renamed.body.data.name).toBe('Recruiting');
    const added = await app.api(ws.apiKey, 'POST', `/api/v1/pipelines/${id}/stages`, {
      name: 'Screen',
      position: 1,
    });
    expect(added.status).toBe(201);
    expect(added.body.data.stages.map((s: { name: string }) => s.name)).toEqual([
      'Applied',
      'Screen',
      'Interview',
    ]);
    const screen = added.body.data.stages[1];
    const stageRenamed = await app.api(ws.apiKey, 'PATCH', `/api/v1/pipelines/${id}/stages/${screen.id}`, {
      name: 'Phone screen',
    });
    expect(stageRenamed.body.data.stages[1].name).toBe('Phone screen');
    const reordered = await app.api(ws.apiKey, 'POST', `/api/v1/pipelines/${id}/stages/reorder`, {
      stageIds: [interview.id, applied.id, screen.id],
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.stages.map((s: { id: string }) => s.id)).toEqual([
      interview.id,
      applied.id,
      screen.id,
    ]);
    const partial = await app.api(ws.apiKey, 'POST', `/api/v1/pipelines/${id}/stages/reorder`, {
      stageIds: [interview.id],
    });
    expect(partial.status).toBe(400);
    const removed = await app.api(ws.apiKey, 'DELETE', `/api/v1/pipelines/${id}/stages/${screen.id}`);
    expect(removed.body.data.stages.map((s: { id: string }) => s.id)).toEqual([interview.id, applied.id]);
    expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/pipelines/${id}/stages/${screen.id}`)).status).toBe(
      404,
    );
  });

  it('refuses to remove a stage holding deals unless they are moved, then moves them with events', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/pipelines', {
      name: 'Renewals',
      stages: ['Open', 'Closed'],
    });
    const [open, closed] = created.body.data.stages;
    const deal = await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
      pipelineId: created.body.data.id,
      title: 'Renew',
    });
    expect(deal.body.data.stageId).toBe(open.id);
    const refused = await app.api(
      ws.apiKey,
      'DELETE',
      `/api/v1/pipelines/${created.body.data.id}/stages/${open.id}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('1 deal');
    const otherPipeline = pipeline.stages[0]!.id;
    const wrongTarget = await app.api(
      ws.apiKey,
      'DELETE',
      `/api/v1/pipelines/${created.body.data.id}/stages/${open.id}?moveDealsTo=${otherPipeline}`,
    );
    expect(wrongTarget.status).toBe(400);
    const moved = await app.api(
      ws.apiKey,
      'DELETE',
      `/api/v1/pipelines/${created.body.data.id}/stages/${open.id}?moveDealsTo=${closed.id}`,
    );
    expect(moved.status).toBe(200);
    const after = await app.api(ws.apiKey, 'GET', `/api/v1/deals/${deal.body.data.id}`);
    expect(after.body.data.stageId).toBe(closed.id);
    const events = await app.service.db.execute<{ payload: { fromStageId: string; toStageId: string } }>(
      sql`select payload from events where type = 'deal.stage_changed' and payload->>'dealId' = ${deal.body.data.id}`,
    );
    expect(events.rows.map((r) => [r.payload.fromStageId, r.payload.toStageId])).toEqual([
      [open.id, closed.id],
    ]);
  });

  it('removes a stage while deals are created in it and moved into it: each side wins or is refused, never a 500 or a stranded deal', async () => {
    // A workspace of its own, so the rounds below neither meet its rate limit nor spend the others'.
    const own = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
    const key = own.apiKey;
    const created = await app.api(key, 'POST', '/api/v1/pipelines', {
      name: 'Races',
      stages: ['Keep'],
    });
    const id = created.body.data.id;
    const [keep] = created.body.data.stages;
    const mover = await app.api(key, 'POST', '/api/v1/deals', { pipelineId: id, title: 'Mover' });
    const statuses = new Set<number>();
    for (let round = 0; round < 20; round++) {
      const added = await app.api(key, 'POST', `/api/v1/pipelines/${id}/stages`, { name: `Doomed ${round}` });
      const doomed = added.body.data.stages.at(-1).id;
      const answers = await Promise.all([
        app.api(key, 'POST', '/api/v1/deals', { pipelineId: id, stageId: doomed, title: `New ${round}` }),
        app.api(key, 'PATCH', `/api/v1/deals/${mover.body.data.id}`, { stageId: doomed }),
        app.api(key, 'DELETE', `/api/v1/pipelines/${id}/stages/${doomed}`),
      ]);
      for (const answer of answers) {
        expect(answer.status, answer.text).toBeLessThan(500);
        statuses.add(answer.status);
      }
      // The mover goes back to a stage that stays, for the next round.
      await app.api(key, 'PATCH', `/api/v1/deals/${mover.body.data.id}`, { stageId: keep.id });
      await app.api(key, 'DELETE', `/api/v1/pipelines/${id}/stages/${doomed}?moveDealsTo=${keep.id}`);
    }
    // Every deal of the pipeline stands in a stage the pipeline still has.
    const stranded = await app.service.db.execute<{ n: number }>(
      sql`select count(*)::int as n from deals d where d.workspace_id = ${own.workspaceId} and d.pipeline_id = ${id}
          and not exists (select 1 from stages s where s.workspace_id = d.workspace_id and s.id = d.stage_id)`,
    );
    expect(stranded.rows[0]!.n).toBe(0);
    expect(
      [...statuses].every((s) => [200, 201, 400, 404].includes(s)),
      [...statuses].join(),
    ).toBe(true);
  });
});

describe('deals', () => {
  it('requires pipelineId to list (400), 404 for an unknown pipeline, and filters by stage and record', async () => {
    expect((await app.api(ws.apiKey, 'GET', '/api/v1/deals')).status).toBe(400);
    expect(
      (await app.api(ws.apiKey, 'GET', '/api/v1/deals?pipelineId=pl_01m7yajqape00a5jqksd4af06w')).status,
    ).toBe(404);
    const record = (
      await app.api(ws.apiKey, 'POST', '/api/v1/records', { folderId: ws.folderId, title: 'Buyer' })
    ).body.data;
    const a = await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
      pipelineId: pipeline.id,
      title: 'A',
      recordId: record.id,
    });
    const b = await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
      pipelineId: pipeline.id,
      title: 'B',
      stageId: pipeline.stages[2]!.id,
    });
    const byStage = await app.api(
      ws.apiKey,
      'GET',
      `/api/v1/deals?pipelineId=${pipeline.id}&stageId=${pipeline.stages[2]!.id}`,
    );
    expect(byStage.body.data.map((d: { id: string }) => d.id)).toEqual([b.body.data.id]);
    const byRecord = await app.api(
      ws.apiKey,
      'GET',
      `/api/v1/deals?pipelineId=${pipeline.id}&recordId=${record.id}`,
    );
    expect(byRecord.body.data.map((d: { id: string }) => d.id)).toEqual([a.body.data.id]);
    const all = await app.api(ws.apiKey, 'GET', `/api/v1/deals?pipelineId=${pipeline.id}&pageSize=200`);
    const ids = all.body.data.map((d: { id: string }) => d.id);
    expect(ids.indexOf(b.body.data.id)).toBeLessThan(ids.indexOf(a.body.data.id));
  });

  it('creates in the first stage by default with the workspace currency, and checks every field', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
      pipelineId: pipeline.id,
      title: 'Big one',
      amount: 1250.5,
      closeDate: '2026-12-31',
      data: { source: 'web' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      stageId: pipeline.stages[0]!.id,
      amount: 1250.5,
      currency: 'USD',
      closeDate: '2026-12-31',
      data: { source: 'web' },
      recordId: null,
    });
    const before = await countRows('deals');
    const bad = [
      { pipelineId: pipeline.id, amount: -1 },
      { pipelineId: pipeline.id, amount: 1.234 },
      { pipelineId: pipeline.id, amount: '12' },
      { pipelineId: pipeline.id, currency: 'XXY' },
      { pipelineId: pipeline.id, closeDate: '2026-02-30' },
      { pipelineId: pipeline.id, closeDate: '31/12/2026' },
      { pipelineId: pipeline.id, stageId: 'st_01m7yajqape00a5jqksd4af06w' },
      { pipelineId: 'pl_01m7yajqape00a5jqksd4af06w' },
      { pipelineId: pipeline.id, recordId: 'rec_01m7yajqape00a5jqksd4af06w' },
      { pipelineId: pipeline.id, owner: 'x' },
      { title: 'no pipeline' },
    ];
    for (const body of bad) {
      const res = await app.api(ws.apiKey, 'POST', '/api/v1/deals', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect(await countRows('deals')).toBe(before);
  });

  it('moves stages with a deal.stage_changed event, merges data, and deletes permanently', async () => {
    const created = (
      await app.api(ws.apiKey, 'POST', '/api/v1/deals', { pipelineId: pipeline.id, data: { a: 1, b: 2 } })
    ).body.data;
    const events = await countRows('events');
    const moved = await app.api(ws.apiKey, 'PATCH', `/api/v1/deals/${created.id}`, {
      stageId: pipeline.stages[3]!.id,
      amount: 99,
      currency: 'EUR',
      data: { a: null, c: 3 },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({
      stageId: pipeline.stages[3]!.id,
      amount: 99,
      currency: 'EUR',
      data: { b: 2, c: 3 },
    });
    const stageEvents = await app.service.db.execute<{ payload: Record<string, unknown> }>(
      sql`select payload from events where type = 'deal.stage_changed' and payload->>'dealId' = ${created.id}`,
    );
    expect(stageEvents.rows).toHaveLength(1);
    expect(stageEvents.rows[0]!.payload).toMatchObject({
      event: 'deal.stage_changed',
      workspaceId: ws.workspaceId,
      dealId: created.id,
      pipelineId: pipeline.id,
      fromStageId: pipeline.stages[0]!.id,
      toStageId: pipeline.stages[3]!.id,
      record: null,
    });
    expect(await countRows('events')).toBe(events + 2);
    const otherPipeline = await app.api(ws.apiKey, 'POST', '/api/v1/pipelines', { name: 'Other' });
    const foreignStage = await app.api(ws.apiKey, 'PATCH', `/api/v1/deals/${created.id}`, {
      stageId: otherPipeline.body.data.stages[0].id,
    });
    expect(foreignStage.status).toBe(400);
    const unchanged = await app.api(ws.apiKey, 'PATCH', `/api/v1/deals/${created.id}`, {
      stageId: pipeline.stages[3]!.id,
    });
    expect(unchanged.body.data.updatedAt).toBe(moved.body.data.updatedAt);
    const deleted = await app.api(ws.apiKey, 'DELETE', `/api/v1/deals/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { id: created.id, deleted: true } });
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/deals/${created.id}`)).status).toBe(404);
    expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/deals/${created.id}`)).status).toBe(404);
  });

  it('hides every deal and pipeline id of another workspace', async () => {
    const other = await app.createWorkspace();
    const deal = (
      await app.api(ws.apiKey, 'POST', '/api/v1/deals', { pipelineId: pipeline.id, title: 'Mine' })
    ).body.data;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/v1/deals/${deal.id}`],
      ['PATCH', `/api/v1/deals/${deal.id}`, { title: 'x' }],
      ['DELETE', `/api/v1/deals/${deal.id}`],
      ['GET', `/api/v1/deals?pipelineId=${pipeline.id}`],
      ['GET', `/api/v1/pipelines/${pipeline.id}`],
      ['PATCH', `/api/v1/pipelines/${pipeline.id}`, { name: 'x' }],
      ['POST', `/api/v1/pipelines/${pipeline.id}/stages`, { name: 'x' }],
      ['DELETE', `/api/v1/pipelines/${pipeline.id}/stages/${pipeline.stages[0]!.id}`],
    ];
    for (const [method, path, body] of calls) {
      expect((await app.api(other.apiKey, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    const intoMine = await app.api(other.apiKey, 'POST', '/api/v1/deals', { pipelineId: pipeline.id });
    expect(intoMine.status).toBe(400);
    const theirs = await app.api(other.apiKey, 'GET', '/api/v1/pipelines');
    expect(theirs.body.data.map((p: { id: string }) => p.id)).not.toContain(pipeline.id);
  });
});
