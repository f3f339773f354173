import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePool, createDatabase, createPool, freePort } from '@crm/db';
import { createApiKey, createWorkspace } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTracked } from '../../../../tooling/vitest/child-processes.ts';
import { DRAIN_MS } from '../service.ts';
import { budget } from '../testing/budget.ts';

/**
 * The README's start command, signalled as a process manager or a terminal would
 * (docs/operations.md, "Start, stop, migrate"): `npm start` with its embedded PostgreSQL gets
 * SIGTERM, then, started again on the same data, SIGINT. Each time an idle keep-alive
 * connection must be closed at once, a request whose body is still arriving must be answered
 * in full, and every process of the tree — npm, the install wrapper, the server and every
 * PostgreSQL process — must be gone within the drain time. npm runs in a process group of its
 * own, as under a process manager, which is also how the test ends the whole tree should it
 * fail before the tree ends by itself (tooling/vitest/child-processes.ts).
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const STARTUP_MS = 120_000;

let dataDir: string;
let pgPort: number;
let apiKey: string | undefined;
let folderId: string | undefined;
const storedIds: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'crm-start-'));
  pgPort = await freePort();
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  npm: ChildProcess;
  url: string;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startNpm(): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    HOST: '127.0.0.1',
    PORT: '0',
    OPS_PORT: '0',
    LOG_LEVEL: 'info',
  };
  // The embedded database is the point: whatever server the test run uses is left out.
  delete env.DATABASE_URL;
  const npm = spawnTracked('npm', ['start'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    npm.once('exit', (code, signal) => done({ code, signal })),
  );
  const lines: string[] = [];
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`npm start did not listen:\n${lines.join('\n')}`)),
      STARTUP_MS,
    );
    let pending = '';
    npm.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        // npm prints its own lines first; the server's are JSON.
        if (!line.startsWith('{') || !line.includes('"service listening"')) continue;
        clearTimeout(timer);
        done((JSON.parse(line) as { url: string }).url);
      }
    });
    npm.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`npm start exited (${code ?? signal}) before listening:\n${lines.join('\n')}`));
    });
  });
  return { npm, url, lines, exited };
}

/** Every process descended from `root`, read from /proc. */
function processTree(root: number): Map<number, string> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // It exited while being read.
    }
  }
  const tree = new Map<number, string>();
  const walk = (pid: number) => {
    try {
      tree.set(pid, readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
    } catch {
      return;
    }
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return tree;
}

const alive = (pids: Iterable<number>) =>
  [...pids].filter((pid) => {
    try {
      // Zombies have exited: only their parent's wait is missing.
      return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
    } catch {
      return false;
    }
  });

/** A keep-alive connection that made one request and now sits idle; resolves when it closes. */
async function idleConnection(url: string): Promise<{ closed: Promise<void> }> {
  const socket = await new Promise<Socket>((done, fail) => {
    const req = request(`${url}/healthz`, { headers: { Connection: 'keep-alive' } }, (res) => {
      res.resume();
      res.once('end', () => done(req.socket!));
    });
    req.once('error', fail);
    req.end();
  });
  return { closed: new Promise((done) => socket.once('close', () => done())) };
}

/** A POST whose body is sent in two halves; `finish()` sends the second and reads the answer. */
function slowPost(url: string, key: string, body: unknown) {
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  const slow = {
    finish: () => {},
    answer: undefined as unknown as Promise<{ status: number; connection: string | undefined; body: string }>,
  };
  slow.answer = new Promise<{ status: number; connection: string | undefined; body: string }>(
    (done, fail) => {
      const req = request(
        `${url}/api/v1/records`,
        {
          method: 'POST',
          agent: false,
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Content-Length': String(payload.length),
          },
        },
        (res: IncomingMessage) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.once('end', () =>
            done({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
          );
        },
      );
      req.once('error', fail);
      req.write(payload.subarray(0, half));
      slow.finish = () => req.end(payload.subarray(half));
    },
  );
  return slow;
}

async function makeKey(): Promise<void> {
  const pool = createPool({
    connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/crm`,
    max: 2,
  });
  try {
    const db = createDatabase(pool);
    const owner = await createWorkspace(db, {
      name: 'Shutdown',
      owner: { email: `owner.${Date.now()}@example.com`, name: 'Owner' },
    });
    apiKey = (await createApiKey(db, { ...owner, name: 'test' })).secret;
  } finally {
    await closePool(pool);
  }
}

describe.each(['SIGTERM', 'SIGINT'] as const)('npm start, then %s', (signal) => {
  it(
    'closes idle connections at once, finishes requests in flight and leaves no process behind',
    async () => {
      const started = await startNpm();
      const { npm, url } = started;
      let tree = new Map<number, string>();
      try {
        if (!apiKey) await makeKey();
        if (!folderId) {
          const folders = await fetch(`${url}/api/v1/folders`, {
            headers: { Authorization: `Bearer ${apiKey}` },
          });
          folderId = ((await folders.json()) as { data: { id: string }[] }).data[0]!.id;
        }
        // What the previous run stored survived its shutdown.
        for (const id of storedIds) {
          const res = await fetch(`${url}/api/v1/records/${id}`, {
            headers: { Authorization: `Bearer ${apiKey}` },
          });
          expect(res.status, id).toBe(200);
        }
        tree = processTree(npm.pid!);
        expect([...tree.values()]).toContain('postgres');
        const idle = await idleConnection(url);
        const post = slowPost(url, apiKey!, { folderId, title: `in flight at ${signal}` });
        // The server has the headers and is reading the body.
        await new Promise((done) => setTimeout(done, 300));

        let answered = false;
        void post.answer.then(() => {
          answered = true;
        });
        const signalledAt = performance.now();
        npm.kill(signal);
        // The idle connection is closed at once: while the request in flight is still held open.
        await idle.closed;
        expect(answered).toBe(false);
        await new Promise((done) => setTimeout(done, 300));
        post.finish();
        const answer = await post.answer;
        expect(answer.status, answer.body).toBe(201);
        expect(answer.connection).toBe('close');
        storedIds.push((JSON.parse(answer.body) as { data: { id: string } }).data.id);

        const exit = await Promise.race([
          started.exited,
          new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), DRAIN_MS)),
        ]);
        expect(exit, started.lines.slice(-20).join('\n')).not.toBe('timeout');
        expect(exit).toEqual({ code: 0, signal: null });
        const deadline = signalledAt + DRAIN_MS;
        while (alive(tree.keys()).length > 0 && performance.now() < deadline) {
          await new Promise((done) => setTimeout(done, 50));
        }
        const left = alive(tree.keys()).map((pid) => `${pid} ${tree.get(pid)}`);
        expect(left).toEqual([]);
        const logged = started.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
        expect(logged.filter((line) => line.msg === 'shutting down')).toHaveLength(1);
        expect(logged.at(-1)).toMatchObject({ msg: 'stopped' });
      } finally {
        for (const pid of alive([...tree.keys(), ...processTree(npm.pid!).keys()]))
          process.kill(pid, 'SIGKILL');
      }
      // npm start up to its limit, a few requests, the signalled tree's drain, and two pauses.
    },
    budget({ waitsMs: STARTUP_MS + 600, requests: 10, processDrains: 1 }),
  );
});
