import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../testing/budget.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';
import { type ServerProcess, startServerProcess } from '../testing/worker-process.ts';

/**
 * Exactly once across crashes: API processes are SIGKILLed at random moments while clients
 * create records with Idempotency-Keys, and every key is retried until it has its answer.
 * Each key must end with exactly one record. Its time limit is the work it does
 * (testing/budget.ts): every key answered, each kill followed by a start, the pauses between kills.
 */
const KEYS = 600;
const CLIENTS = 12;
const KILLS = 6;

let app: TestApp;
let ws: TestWorkspace;
let server: ServerProcess | undefined;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
});
afterAll(async () => {
  if (server && server.proc.exitCode === null) {
    server.proc.kill('SIGKILL');
    await server.exited;
  }
  await app?.stop();
});

/** A small seeded generator, so a failing run can be repeated. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Idempotency-Key across killed processes', () => {
  it(
    'creates exactly one record per key while API processes are SIGKILLed under load',
    async () => {
      const next = random(20261122);
      server = await startServerProcess(app.service.connectionString);
      const seen = { created: 0, replayed: 0, conflicts: 0, failures: 0, kills: 0 };
      // The most process restarts one key's conflicts lasted through (counted, not timed).
      let longestConflictRestarts = 0;
      const unexpected: number[] = [];
      let nextKey = 0;
      let finished = false;
      // Resolves once the current process listens: a client whose request got no answer waits for
      // it rather than knocking on a closed port every few milliseconds, which would only slow
      // the new process's start on a busy machine.
      let listening: Promise<void> = Promise.resolve();

      const client = async () => {
        while (nextKey < KEYS) {
          const key = `crash-${nextKey++}`;
          let conflictSince: number | null = null; // the restarts so far at its first conflict
          for (let attempt = 0; ; attempt++) {
            if (attempt > 2_000) throw new Error(`${key} never got an answer`);
            const url = server!.url;
            const res = await fetch(`${url}/api/v1/records`, {
              method: 'POST',
              headers: {
                Authorization: `Bearer ${ws.apiKey}`,
                'Content-Type': 'application/json',
                'Idempotency-Key': key,
              },
              body: JSON.stringify({ folderId: ws.folderId, title: key }),
            }).catch(() => null);
            const body = res ? await res.text().catch(() => null) : null;
            if (res && body !== null && res.status === 201) {
              if (res.headers.get('idempotent-replayed') === 'true') seen.replayed++;
              else seen.created++;
              if (conflictSince !== null)
                longestConflictRestarts = Math.max(longestConflictRestarts, seen.kills - conflictSince);
              break;
            }
            if (res?.status === 409) {
              seen.conflicts++;
              conflictSince ??= seen.kills;
              await pause(20);
            } else {
              // The process died under the request: no answer, to be retried on the next one.
              if (res) unexpected.push(res.status);
              seen.failures++;
              await Promise.all([listening, pause(20)]);
            }
          }
        }
      };

      const killer = async () => {
        while (!finished && seen.kills < KILLS) {
          await pause(100 + next() * 500);
          if (finished) return;
          let started = () => {};
          listening = new Promise((resolve) => {
            started = resolve;
          });
          server!.proc.kill('SIGKILL');
          await server!.exited;
          seen.kills++;
          server = await startServerProcess(app.service.connectionString);
          started();
        }
      };

      const load = Promise.all(Array.from({ length: CLIENTS }, client)).finally(() => {
        finished = true;
      });
      await Promise.all([load, killer()]);

      const counts = await app.service.db.execute<{ title: string; n: number }>(
        sql`select title, count(*)::int as n from records
           where workspace_id = ${ws.workspaceId} and title like 'crash-%' group by title`,
      );
      const duplicates = counts.rows.filter((row) => row.n !== 1);
      expect(duplicates).toEqual([]);
      expect(unexpected).toEqual([]);
      expect(counts.rows).toHaveLength(KEYS);
      expect(seen.created + seen.replayed).toBe(KEYS);
      expect(seen.kills).toBeGreaterThanOrEqual(3);
      // A dead process's hold on a key goes with its connection.
      // The process that held it is gone at the next restart at the latest, and its connection
      // with it: a key never waits through more restarts than that and the one under way.
      expect(longestConflictRestarts).toBeLessThanOrEqual(2);
      console.info('idempotency under SIGKILL', { keys: KEYS, ...seen, longestConflictRestarts });
    },
    budget({ requests: KEYS, processStarts: KILLS + 1, waitsMs: KILLS * 600 }),
  );
});
