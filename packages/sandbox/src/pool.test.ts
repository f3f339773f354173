import { afterEach, describe, expect, it } from 'vitest';
import { CODE_LIMITS } from './limits.ts';
import { type PoolOptions, SandboxPool } from './pool.ts';

const worker = (name: string) => new URL(`./testing/${name}.mjs`, import.meta.url);
const limits = { ...CODE_LIMITS, cpuMs: 100 };
const request = (source: string) => ({ source, inputJson: 'null', limits });

describe('SandboxPool: a thread that fails its run is replaced', () => {
  let pool: SandboxPool | undefined;
  const open = (options: Partial<PoolOptions>) => {
    pool = new SandboxPool({
      threads: 1,
      graceMs: 200,
      startMs: 10_000,
      workerUrl: worker('flaky-worker'),
      ...options,
    });
    return pool;
  };
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('fails a run whose thread does not answer within cpuMs + graceMs, then runs the next on a new thread', async () => {
    const sandbox = open({});
    const [hung, next] = await Promise.all([sandbox.run(request('hang')), sandbox.run(request('after'))]);
    expect(hung).toEqual({
      ok: false,
      error: {
        kind: 'timeout',
        message: "The sandbox's worker thread did not answer within 300 ms and was stopped",
      },
      durationMs: expect.any(Number),
    });
    expect(hung.durationMs).toBeGreaterThanOrEqual(299);
    expect(next).toEqual({ ok: true, outputJson: '"after"', durationMs: 0 });
  });

  it('fails the run of a thread that exits, and of one that throws, then runs the next', async () => {
    const sandbox = open({ graceMs: 5000 });
    expect(await sandbox.run(request('exit'))).toMatchObject({
      ok: false,
      error: { kind: 'timeout', message: "The sandbox's worker thread stopped (exit code 3)" },
    });
    expect(await sandbox.run(request('one'))).toMatchObject({ ok: true, outputJson: '"one"' });
    expect(await sandbox.run(request('crash'))).toMatchObject({
      ok: false,
      error: { kind: 'timeout', message: "The sandbox's worker thread stopped (crashed on purpose)" },
    });
    expect(await sandbox.run(request('two'))).toMatchObject({ ok: true, outputJson: '"two"' });
  });

  it('runs as many requests at once as it has threads, and queues the rest', async () => {
    const sandbox = open({ threads: 2 });
    // Two hung runs hold both threads; the third waits for a thread of its own.
    const results = await Promise.all([
      sandbox.run(request('hang')),
      sandbox.run(request('hang')),
      sandbox.run(request('third')),
    ]);
    expect(results.map((r) => r.ok)).toEqual([false, false, true]);
  });

  it('fails one waiting run for each thread that cannot start, and no more', async () => {
    const exiting = open({ workerUrl: worker('exiting-worker') });
    const [first, second] = await Promise.all([exiting.run(request('a')), exiting.run(request('b'))]);
    for (const result of [first, second]) {
      expect(result).toMatchObject({
        ok: false,
        error: { kind: 'timeout', message: "The sandbox's worker thread stopped (exit code 4)" },
      });
    }
    await exiting.close();
    const silent = open({ workerUrl: worker('never-ready-worker'), startMs: 200 });
    expect(await silent.run(request('a'))).toMatchObject({
      ok: false,
      error: { kind: 'timeout', message: "The sandbox's worker thread was not ready within 200 ms" },
    });
  });

  it('fails the runs in progress and waiting when closed', async () => {
    const sandbox = open({ graceMs: 60_000 });
    const running = sandbox.run(request('hang'));
    const waiting = sandbox.run(request('never'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sandbox.close();
    expect(await running).toMatchObject({
      ok: false,
      error: { kind: 'timeout', message: 'The sandbox was closed' },
    });
    expect(await waiting).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });
});
