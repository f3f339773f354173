/**
 * The figures of docs/decisions/0012-code-sandbox.md: the time of a trivial run, and the
 * process's memory over 1,000 runs of which some try to allocate a gibibyte or fill their
 * 64 MiB. Ends without closeSandbox(): the process exiting by itself shows that an idle pool
 * keeps nothing alive.
 *
 *   npx tsx packages/sandbox/scripts/measure.ts
 */
import { type CodeResult, runCode } from '../src/index.ts';

const MiB = 1024 * 1024;
const rss = () => Math.round(process.memoryUsage().rss / MiB);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

function expectOk(result: CodeResult, what: string): void {
  if (!result.ok) throw new Error(`${what}: ${JSON.stringify(result.error)}`);
}

// The first run starts the worker thread (its warm-up included).
let started = performance.now();
expectOk(await runCode('return 1', {}), 'first run');
console.log(
  `first run (thread start, WebAssembly compile, warm-up): ${Math.round(performance.now() - started)} ms`,
);
console.log(`rss after the first run: ${rss()} MiB`);

// A trivial run, end to end: runCode called, answer back on the host.
const times: number[] = [];
let engineMs = 0;
for (let i = 0; i < 500; i++) {
  const t = performance.now();
  const result = await runCode('return { n: input.n + 1, at: input.record.id }', {
    n: i,
    record: { id: 'r' },
  });
  times.push(performance.now() - t);
  expectOk(result, 'trivial');
  engineMs += result.durationMs;
}
times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log(
  `trivial run, 500 in a row: mean ${mean.toFixed(2)} ms, p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms; on the thread (new instance and run, its durationMs): mean ${(engineMs / 500).toFixed(2)} ms`,
);

// 1,000 runs: every 100th tries a gibibyte one of three ways, every 100th (offset 50) keeps
// typed arrays until its 64 MiB are full; the rest are small.
const GREEDY = [
  'return new Array(1e9).fill(1)',
  "return 'x'.repeat(2 ** 30)",
  'return new ArrayBuffer(2 ** 30)',
];
const FILL = 'const a = [];\nfor (;;) a.push(new Uint8Array(1 << 20));';
const kinds = new Map<string, number>();
let peak = rss();
started = performance.now();
for (let i = 0; i < 1000; i++) {
  const source =
    i % 100 === 0
      ? (GREEDY[(i / 100) % 3] ?? '')
      : i % 100 === 50
        ? FILL
        : 'return input.list.map((n) => n * 2)';
  const result = await runCode(source, { list: [1, 2, 3, i] });
  const kind = result.ok ? 'ok' : result.error.kind;
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  peak = Math.max(peak, rss());
  if (i % 250 === 249) console.log(`after ${i + 1} runs: rss ${rss()} MiB`);
}
console.log(
  `1,000 runs in ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(Object.fromEntries(kinds))}; rss peak ${peak} MiB, end ${rss()} MiB`,
);
const end = performance.now();
process.on('exit', () => {
  console.log(`process exited by itself ${Math.round(performance.now() - end)} ms after the last run`);
});
