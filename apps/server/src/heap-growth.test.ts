import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readEnv } from './env.ts';

const envModule = fileURLToPath(new URL('./env.ts', import.meta.url));

/**
 * Runs limitHeapGrowth in a fresh process, fills the heap, forces a full collection and
 * returns what V8's heap controller printed about the next limit it set.
 */
async function heapControllerTrace(percent: number): Promise<string> {
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
  const run = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 60_000 },
  );
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

  it("sets the factor V8's heap controller grows the old generation by", async () => {
    // Two processes side by side: most of each one's time is loading env.ts.
    const [half, more] = await Promise.all([heapControllerTrace(50), heapControllerTrace(120)]);
    expect(appliedFactors(half)).toContain('1.5');
    expect(appliedFactors(more)).toContain('2.2');
  });
});
