import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readEnv } from './env.ts';

const envModule = fileURLToPath(new URL('./env.ts', import.meta.url));

/**
 * Runs limitHeapGrowth in a fresh process, fills the heap, forces a full collection and
 * returns what V8's heap controller printed about the next limit it set.
 */
function heapControllerTrace(percent: number): string {
  const script = `
    import { setFlagsFromString } from 'node:v8';
    const { limitHeapGrowth } = await import(${JSON.stringify(envModule)});
    limitHeapGrowth(${percent});
    setFlagsFromString('--trace-gc-verbose');
    let kept = [];
    for (let i = 0; i < 200_000; i++) kept.push({ i, text: 'item ' + i });
    globalThis.gc();
    kept = null;
  `;
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout
    .split('\n')
    .filter((line) => line.includes('[HeapController]'))
    .join('\n');
}

/** The factor V8 applied: its trace names it on the limit line, or (newer V8) on the factor line. */
function appliedFactors(trace: string): string[] {
  return [...trace.matchAll(/Limit: .*\(([\d.]+)\)$|factor ([\d.]+) based on/gm)].map(
    (m) => m[1] ?? m[2] ?? '',
  );
}

describe('HEAP_GROWTH_PERCENT', () => {
  it('defaults to 50 and accepts 0 (V8 decides)', () => {
    expect(readEnv({}).HEAP_GROWTH_PERCENT).toBe(50);
    expect(readEnv({ HEAP_GROWTH_PERCENT: '0' }).HEAP_GROWTH_PERCENT).toBe(0);
  });

  it.each(['-1', '301', '1.5', 'lots'])('refuses %s with the variable named', (value) => {
    expect(() => readEnv({ HEAP_GROWTH_PERCENT: value })).toThrow(/Invalid environment: HEAP_GROWTH_PERCENT/);
  });

  it("sets the factor V8's heap controller grows the old generation by", () => {
    expect(appliedFactors(heapControllerTrace(50))).toContain('1.5');
    expect(appliedFactors(heapControllerTrace(120))).toContain('2.2');
  });
});
