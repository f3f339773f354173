import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let pipeline: { id: string; stages: { id: string; name: string }[] };

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
  const created = await app.api(ws.apiKey, 'POST', '/api/v1/pipelines', {
    name: 'Summed',
    stages: ['Open', 'Offer', 'Empty', 'Bulk'],
  });
  expect(created.status).toBe(201);
  pipeline = created.body.data;
  const [open, offer, , bulk] = pipeline.stages.map((s) => s.id);
  const deal = async (stageId: string | undefined, amount: number | null, currency: string) => {
    const res = await app.api(ws.apiKey, 'POST', '/api/v1/deals', {
      pipelineId: pipeline.id,
      stageId,
      title: `Deal ${amount} ${currency}`,
      ...(amount === null ? {} : { amount }),
      currency,
    });
    expect(res.status).toBe(201);
  };
  await deal(open, 0.1, 'USD');
  await deal(open, 0.2, 'USD');
  await deal(open, null, 'USD');
  await deal(open, 100.1, 'EUR');
  await deal(offer, 1_000_000.01, 'EUR');
  await deal(offer, 0.99, 'EUR');
  // More deals than a browser would page through: 1,100 at 1.01 USD, written directly.
  await app.service.db.execute(sql`
    insert into deals (workspace_id, id, pipeline_id, stage_id, title, amount, currency)
    select ${ws.workspaceId}, 'deal_bulk' || g, ${pipeline.id}, ${bulk}, 'Bulk ' || g, 1.01, 'USD'
      from generate_series(1, 1100) as g`);
  // Deals of another pipeline and of another workspace are not counted.
  const sales = (await app.api(ws.apiKey, 'GET', '/api/v1/pipelines')).body.data.find(
    (p: { name: string }) => p.name === 'Sales',
  );
  expect(
    (await app.api(ws.apiKey, 'POST', '/api/v1/deals', { pipelineId: sales.id, amount: 5, currency: 'USD' }))
      .status,
  ).toBe(201);
  const other = await app.createWorkspace();
  const theirs = (await app.api(other.apiKey, 'GET', '/api/v1/pipelines')).body.data[0];
  expect(
    (
      await app.api(other.apiKey, 'POST', '/api/v1/deals', {
        pipelineId: theirs.id,
        amount: 7,
        currency: 'USD',
      })
    ).status,
  ).toBe(201);
});
afterAll(() => app?.stop());

const expected = () => ({
  pipelineId: pipeline.id,
  count: 1106,
  totals: [
    { currency: 'EUR', count: 3, amount: 1_000_101.1 },
    { currency: 'USD', count: 1103, amount: 1111.3 },
  ],
  stages: [
    {
      stageId: pipeline.stages[0]!.id,
      name: 'Open',
      count: 4,
      totals: [
        { currency: 'EUR', count: 1, amount: 100.1 },
        // 0.1 + 0.2 summed exactly, not as floating point (0.30000000000000004).
        { currency: 'USD', count: 3, amount: 0.3 },
      ],
    },
    {
      stageId: pipeline.stages[1]!.id,
      name: 'Offer',
      count: 2,
      totals: [{ currency: 'EUR', count: 2, amount: 1_000_001 }],
    },
    { stageId: pipeline.stages[2]!.id, name: 'Empty', count: 0, totals: [] },
    {
      stageId: pipeline.stages[3]!.id,
      name: 'Bulk',
      count: 1100,
      totals: [{ currency: 'USD', count: 1100, amount: 1111 }],
    },
  ],
});

describe('GET /pipelines/{id}/summary', () => {
  it('counts and sums every deal of the pipeline by stage, per currency, to the cent', async () => {
    const res = await app.api(ws.apiKey, 'GET', `/api/v1/pipelines/${pipeline.id}/summary`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expected() });
    // It changes with every deal write: no ETag to revalidate against.
    expect(res.headers.get('etag')).toBeNull();
  });

  it('follows a stage move', async () => {
    const found = await app.service.db.execute<{ id: string }>(
      sql`select id from deals where workspace_id = ${ws.workspaceId} and amount = 100.1`,
    );
    const moved = found.rows[0]!;
    const patched = await app.api(ws.apiKey, 'PATCH', `/api/v1/deals/${moved.id}`, {
      stageId: pipeline.stages[2]!.id,
    });
    expect(patched.status).toBe(200);
    const res = await app.api(ws.apiKey, 'GET', `/api/v1/pipelines/${pipeline.id}/summary`);
    expect(res.body.data.stages[0].totals).toEqual([{ currency: 'USD', count: 3, amount: 0.3 }]);
    expect(res.body.data.stages[2]).toMatchObject({
      count: 1,
      totals: [{ currency: 'EUR', count: 1, amount: 100.1 }],
    });
    expect(res.body.data.totals).toEqual(expected().totals);
    const back = await app.api(ws.apiKey, 'PATCH', `/api/v1/deals/${moved.id}`, {
      stageId: pipeline.stages[0]!.id,
    });
    expect(back.status).toBe(200);
  });

  it('is the same over tRPC, and 404 for a pipeline the workspace does not have', async () => {
    const trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) }),
      ],
    });
    const viaTrpc = await trpc.pipelines.summary.query({ id: pipeline.id });
    expect(viaTrpc).toEqual({ data: expected() });
    expect((await app.api(ws.apiKey, 'GET', '/api/v1/pipelines/pl_unknown/summary')).status).toBe(404);
    const other = await app.createWorkspace();
    const res = await app.api(other.apiKey, 'GET', `/api/v1/pipelines/${pipeline.id}/summary`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
