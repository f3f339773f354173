import {
  CODE_LIMITS,
  type CodeErrorKind,
  type CodeLimits,
  type CodeResult,
  MAX_STACK_BYTES,
} from './limits.ts';
import { type PoolOptions, SandboxPool } from './pool.ts';

/** The worker thread's entry, found from this file's place (as written, and in the bundle). */
const ENGINE_WORKER = new URL('./engine-worker.mjs', import.meta.url);

/**
 * One thread per process; 4 s past a run's own time before its thread is given up; 10 s for a
 * new thread to be ready (about 0.5 s on the 2-core machine, busy).
 */
const DEFAULT_POOL: PoolOptions = { threads: 1, graceMs: 4000, startMs: 10_000, workerUrl: ENGINE_WORKER };

let poolOptions: PoolOptions = DEFAULT_POOL;
let pool: SandboxPool | undefined;

export interface SandboxOptions {
  /** Worker threads running CODE steps side by side (default 1). */
  threads?: number;
  /** How long past `cpuMs` a thread may take to answer before it is replaced (default 4000). */
  graceMs?: number;
}

/**
 * Sets the pool's size and grace time: call it before the first run, or after
 * `closeSandbox()`. Answers the options it replaces.
 */
export function configureSandbox(options: SandboxOptions): Required<SandboxOptions> {
  if (pool) throw new Error('configureSandbox: the sandbox is running; call closeSandbox() first');
  const previous = { threads: poolOptions.threads, graceMs: poolOptions.graceMs };
  poolOptions = { ...poolOptions, ...options };
  return previous;
}

/** Stops the sandbox's threads (shutdown, tests); the next run starts new ones. */
export async function closeSandbox(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}

/**
 * Runs a CODE step: `source` as the body of `function (input)`, in QuickJS on a worker thread,
 * within `CODE_LIMITS` or the limits given (the contract is limits.ts's). Resolves with the
 * output or the error, never rejects for anything the source does; rejects only for what the
 * caller got wrong: limits that are not positive numbers, an input that is not JSON.
 */
export async function runCode(
  source: string,
  input: unknown,
  limits: Partial<CodeLimits> = {},
): Promise<CodeResult> {
  const effective = effectiveLimits(limits);
  if (source.length > effective.sourceChars) {
    return refused(
      'syntax',
      `The source is ${count(source.length)} characters; the limit is ${count(effective.sourceChars)}`,
    );
  }
  const inputJson = JSON.stringify(input === undefined ? null : input) as string | undefined;
  if (inputJson === undefined) throw new TypeError('runCode: the input is not JSON');
  const inputBytes = Buffer.byteLength(inputJson, 'utf8');
  if (inputBytes > effective.inputBytes) {
    return refused(
      'memory',
      `The input is ${count(inputBytes)} bytes as JSON; the limit is ${count(effective.inputBytes)}`,
    );
  }
  pool ??= new SandboxPool(poolOptions);
  const result = await pool.run({ source, inputJson, limits: effective });
  if (!result.ok) return result;
  return { ok: true, output: JSON.parse(result.outputJson), durationMs: result.durationMs };
}

function effectiveLimits(limits: Partial<CodeLimits>): CodeLimits {
  const merged = { ...CODE_LIMITS, ...limits };
  for (const [name, value] of Object.entries(merged)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`runCode: limit ${name} must be a positive number, not ${value}`);
    }
  }
  return { ...merged, stackBytes: Math.min(merged.stackBytes, MAX_STACK_BYTES) };
}

/** A run refused before it started: its source or its input is over a limit. */
function refused(kind: CodeErrorKind, message: string): CodeResult {
  return { ok: false, error: { kind, message }, durationMs: 0 };
}

function count(n: number): string {
  return n.toLocaleString('en');
}
