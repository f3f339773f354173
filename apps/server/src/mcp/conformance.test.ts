import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, 0.1.13: the last
 * release that starts on Node 20) against /mcp, for the server scenarios that apply to a real
 * server rather than to the suite's own test tools. Its server mode sends no credentials, so a
 * small proxy in front adds the key and forwards everything else (Host and Origin included)
 * unchanged. By hand, with the service on :3000:
 *
 *   node apps/server/node_modules/@modelcontextprotocol/conformance/dist/index.js server \
 *     --url http://localhost:<proxy port>/mcp --scenario tools-list
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

let app: TestApp;
let ws: TestWorkspace;
let proxy: Server;
let proxyUrl: string;
let outputs: string;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
  const target = new URL(app.url);
  proxy = createServer((req, res) => {
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${ws.apiKey}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  // The suite's rebinding scenario needs a localhost URL.
  proxyUrl = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
  outputs = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await app?.stop();
  if (outputs) await rm(outputs, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** The checks a scenario's run wrote (`<output>/<scenario>-<time>/checks.json`). */
async function checksOf(dir: string): Promise<Check[]> {
  const [folder] = await readdir(dir);
  return JSON.parse(await readFile(join(dir, folder ?? '', 'checks.json'), 'utf8')) as Check[];
}

describe('the MCP conformance suite', () => {
  it.each(SCENARIOS)('passes %s', async (scenario) => {
    const dir = join(outputs, scenario);
    const result = await run(
      process.execPath,
      [CLI, 'server', '--url', proxyUrl, '--scenario', scenario, '-o', dir],
      {
        timeout: 60_000,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => error);
    const checks = await checksOf(dir);
    const failed = checks.filter((c) => c.status === 'FAILURE');
    expect(failed, `${result.stdout ?? ''}${result.stderr ?? ''}`).toEqual([]);
    expect(checks.filter((c) => c.status === 'SUCCESS').length).toBeGreaterThan(0);
  });
});
