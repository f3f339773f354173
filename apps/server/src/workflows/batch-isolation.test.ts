import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';
import { runQueue } from './trigger-endpoint.ts';

/**
 * Calls of every workspace are queued together (one transaction per batch): one workspace's
 * bad call must never fail another's.
 */
let app: TestApp;
let wsA: TestWorkspace;
let wsB: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  wsA = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  wsB = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
});
afterAll(() => app?.stop());

async function workflowOf(ws: TestWorkspace) {
  const res = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
    name: 'Intake',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions: [{ type: 'CREATE_RECORD', folderId: ws.folderId, title: '{{ trigger.body.name }}' }],
  });
  expect(res.status).toBe(201);
  const id = res.body.data.id as string;
  const [row] = (
    await app.service.db.execute<{ workspace_id: string; rate_limit_per_minute: number }>(
      sql`select workspace_id, rate_limit_per_minute from workflows where id = ${id}`,
    )
  ).rows;
  return {
    id,
    workspaceId: row!.workspace_id,
    secret: null,
    previousSecret: null,
    previousSecretExpiresAt: null,
    rateLimitPerMinute: row!.rate_limit_per_minute,
  };
}

const countRuns = async (workflowId: string) =>
  (
    await app.service.db.execute<{ n: number }>(
      sql`select count(*)::int as n from workflow_runs where workflow_id = ${workflowId}`,
    )
  ).rows[0]!.n;

function deeplyNested(levels: number): string {
  return `{"name":"deep","x":${'['.repeat(levels)}${']'.repeat(levels)}}`;
}

describe('trigger calls batched across workspaces', () => {
  it('answers every good call of both workspaces 200 while bad calls in the same batches get 400', async () => {
    const a = await workflowOf(wsA);
    const b = await workflowOf(wsB);
    const bad = ['{"name":"nul \\u0000"}', '{"name":"half \\ud800"}', '{"\\u0000":1}', deeplyNested(5_000)];
    const calls: Promise<{ workspace: 'A' | 'B'; good: boolean; status: number }>[] = [];
    for (let i = 0; i < 60; i++) {
      const good = i % 3 !== 0;
      const workflow = i % 2 === 0 ? a : b;
      const body = good ? JSON.stringify({ name: `Lead ${i}` }) : bad[i % bad.length]!;
      calls.push(
        fetch(`${app.url}/api/webhooks/trigger/${workflow.id}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        }).then(async (res) => {
          await res.arrayBuffer();
          return { workspace: workflow === a ? 'A' : 'B', good, status: res.status };
        }),
      );
    }
    const answers = await Promise.all(calls);
    const goodAnswers = answers.filter((x) => x.good);
    expect(goodAnswers.map((x) => x.status)).toEqual(goodAnswers.map(() => 200));
    expect(answers.filter((x) => !x.good).map((x) => x.status)).toEqual(
      answers.filter((x) => !x.good).map(() => 400),
    );
    const goodOf = (w: 'A' | 'B') => goodAnswers.filter((x) => x.workspace === w).length;
    expect(await countRuns(a.id)).toBe(goodOf('A'));
    expect(await countRuns(b.id)).toBe(goodOf('B'));
  });

  it('queues the other calls of a batch when PostgreSQL refuses one call’s body', async () => {
    const a = await workflowOf(wsA);
    const b = await workflowOf(wsB);
    // Past the endpoint's own checks: a value only the database refuses, in one batch.
    const queue = runQueue(app.service.db);
    const first = queue.submit('', { workflow: b, body: { name: 'first' }, recordId: null });
    const batch = [
      queue.submit('', { workflow: b, body: { name: 'B good' }, recordId: null }),
      queue.submit('', { workflow: a, body: { name: 'A bad \u0000' }, recordId: null }),
      queue.submit('', { workflow: b, body: { name: 'B good too' }, recordId: null }),
      queue.submit('', { workflow: a, body: { name: 'A good' }, recordId: null }),
    ];
    await first;
    const settled = await Promise.allSettled(batch);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const refused = settled[1] as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await countRuns(b.id)).toBe(3);
    expect(await countRuns(a.id)).toBe(1);
  });
});
