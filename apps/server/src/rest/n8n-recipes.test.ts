import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * The n8n recipes of docs/syncing.md, run by a real n8n: the importable walk of
 * docs/examples/n8n/walk-records.json must end with every record even when the rate limit
 * refuses a page in the middle, and the HTTP Request node's own pagination, set up as the
 * docs say, must fail visibly on that 429 rather than end early with part of the list.
 *
 * n8n is not a dependency of the project (it is large and builds native modules): point
 * N8N_BIN at an installed n8n's executable to run these, e.g.
 * `N8N_BIN=/opt/n8n/node_modules/.bin/n8n npx vitest run apps/server/src/rest/n8n-recipes.test.ts`.
 */
const N8N_BIN = process.env.N8N_BIN;
const RECORDS = 125;
const PAGE_SIZE = 10;
/** Fewer requests a minute than the walk needs (seeding 2, pages 13): one page meets a 429. */
const LIMIT = 12;

let app: TestApp;
let ws: TestWorkspace;
let folder: string;

describe.skipIf(!N8N_BIN)('n8n recipes, run by n8n', () => {
  beforeAll(async () => {
    app = await startTestApp();
    ws = await app.createWorkspace({ rateLimitPerMinute: LIMIT });
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/folders', { name: 'Walked' });
    folder = created.body.data.id;
    for (let from = 0; from < RECORDS; from += 100) {
      const items = Array.from({ length: Math.min(100, RECORDS - from) }, (_, i) => ({
        folderId: folder,
        title: `Walked ${from + i}`,
      }));
      const res = await app.api(ws.apiKey, 'POST', '/api/v1/records/batch', { items });
      expect(res.status, res.text).toBe(200);
    }
  }, 60_000);
  afterAll(() => app?.stop());

  it('walks every record with the loop of walk-records.json, waiting out the 429 met on the way', async () => {
    const workflow = JSON.parse(
      await readFile(
        path.resolve(import.meta.dirname, '../../../../docs/examples/n8n/walk-records.json'),
        'utf8',
      ),
    );
    const start = workflow.nodes.find((n: { name: string }) => n.name === 'Start');
    for (const assignment of start.parameters.assignments.assignments) {
      if (assignment.name === 'nextUrl')
        assignment.value = `${app.url}/api/v1/records?folderId=${folder}&pageSize=${PAGE_SIZE}`;
      if (assignment.name === 'apiKey') assignment.value = ws.apiKey;
    }
    const run = await runN8n(workflow);
    expect(run.error, run.output.slice(-2000)).toBeUndefined();
    const walked = run.items('All records').map((item) => item.id as string);
    expect(new Set(walked).size).toBe(RECORDS);
    expect(walked).toHaveLength(RECORDS);
    // The limit was met: the walk went through the Wait node at least once.
    expect(run.runs('Wait')).toBeGreaterThanOrEqual(1);
  }, 240_000);

  it("fails visibly when the node's own pagination meets a 429, as the docs set it up", async () => {
    // The previous test spent this minute's requests: the first pages already meet the limit.
    const run = await runN8n(nodePaging(ws.apiKey, folder));
    // The run stops on the page the limit refused, with that answer as its error.
    expect(run.error, run.output.slice(-2000)).toMatch(/429|too many requests|rate limit/i);
  }, 120_000);

  it("walks every record with the node's own pagination, next URL mode, when the limit allows", async () => {
    const roomy = await app.createWorkspace({ rateLimitPerMinute: 1_000 });
    const own = (await app.api(roomy.apiKey, 'POST', '/api/v1/folders', { name: 'Roomy' })).body.data.id;
    const items = Array.from({ length: 25 }, (_, i) => ({ folderId: own, title: `Roomy ${i}` }));
    expect((await app.api(roomy.apiKey, 'POST', '/api/v1/records/batch', { items })).status).toBe(200);
    const run = await runN8n(nodePaging(roomy.apiKey, own));
    expect(run.error, run.output.slice(-2000)).toBeUndefined();
    // The node returns one item per page, each a whole answer.
    const pages = run.items('List') as { data: { id: string }[]; meta: { nextUrl: string | null } }[];
    expect(pages).toHaveLength(3);
    expect(new Set(pages.flatMap((p) => p.data.map((r) => r.id))).size).toBe(25);
    expect(pages.at(-1)!.meta.nextUrl).toBeNull();
  }, 120_000);
});

/** The HTTP Request node paging by itself as docs/syncing.md sets it up ("Read a whole list"). */
function nodePaging(apiKey: string, folderId: string) {
  return {
    name: 'Paging with the node',
    nodes: [
      {
        id: 'b1',
        name: 'Run',
        type: 'n8n-nodes-base.manualTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: {},
      },
      {
        id: 'b2',
        name: 'List',
        type: 'n8n-nodes-base.httpRequest',
        typeVersion: 4.2,
        position: [220, 0],
        parameters: {
          url: `${app.url}/api/v1/records?folderId=${folderId}&pageSize=${PAGE_SIZE}`,
          sendHeaders: true,
          headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${apiKey}` }] },
          options: {
            pagination: {
              pagination: {
                paginationMode: 'responseContainsNextURL',
                nextURL: '={{ $response.body.meta.nextUrl }}',
                paginationCompleteWhen: 'other',
                completeExpression:
                  '={{ $response.statusCode == 200 && $response.body.meta.nextUrl === null }}',
              },
            },
          },
        },
      },
    ],
    connections: { Run: { main: [[{ node: 'List', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
}

interface N8nRun {
  output: string;
  error?: string;
  items(node: string): Record<string, unknown>[];
  runs(node: string): number;
}

/** Runs a workflow with `n8n execute --file`, in a user folder of its own, and reads its run data. */
async function runN8n(workflow: unknown): Promise<N8nRun> {
  const folder = await mkdtemp(path.join(tmpdir(), 'n8n-check-'));
  try {
    const file = path.join(folder, 'workflow.json');
    // n8n runs a workflow it holds: imported under an id of its own, then executed by id.
    const id = 'crmRecipeCheck01';
    await writeFile(file, JSON.stringify({ ...(workflow as object), id }));
    const n8n = (args: string[]) =>
      new Promise<string>((resolve) => {
        execFile(
          N8N_BIN!,
          args,
          {
            env: {
              ...process.env,
              N8N_USER_FOLDER: folder,
              // What vitest sets (test) makes n8n skip its commands.
              NODE_ENV: 'production',
              N8N_DIAGNOSTICS_ENABLED: 'false',
              N8N_RUNNERS_ENABLED: 'false',
              // The expression engine of n8n before its isolated-vm one, which needs a native build.
              N8N_EXPRESSION_ENGINE: 'legacy',
              DB_SQLITE_POOL_SIZE: '1',
            },
            maxBuffer: 64 * 1024 * 1024,
            timeout: 200_000,
          },
          (error, stdout, stderr) => resolve(`${stdout}\n${stderr}${error ? `\n${String(error)}` : ''}`),
        );
      });
    const imported = await n8n(['import:workflow', `--input=${file}`]);
    if (!/Successfully imported/i.test(imported)) {
      return { output: imported, error: 'the workflow was not imported', items: () => [], runs: () => 0 };
    }
    const output = await n8n(['execute', `--id=${id}`, '--rawOutput']);
    const json = output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1);
    // Printed as `{ "data": <the run> }` (after n8n's own log lines).
    let run: {
      resultData?: {
        error?: { message?: string; description?: string };
        runData?: Record<string, { data?: { main?: { json: Record<string, unknown> }[][] } }[]>;
      };
    } = {};
    try {
      run = JSON.parse(json).data ?? {};
    } catch {
      return { output, error: 'no run data printed', items: () => [], runs: () => 0 };
    }
    const runData = run.resultData?.runData ?? {};
    const failure = run.resultData?.error;
    return {
      output,
      error: failure ? `${failure.message ?? ''} ${failure.description ?? ''}`.trim() : undefined,
      items: (node) => (runData[node] ?? []).flatMap((r) => r.data?.main?.[0]?.map((i) => i.json) ?? []),
      runs: (node) => (runData[node] ?? []).length,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
