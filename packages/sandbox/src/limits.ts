/**
 * The contract of a CODE step (docs/decisions/0012-code-sandbox.md):
 *
 * - `source` is the body of a function of one argument, `input`, a JSON object
 *   `{ trigger, record, steps, item, loop }`. What it returns is the step's output: a JSON
 *   value of at most `outputBytes` once serialised. Returning undefined (or nothing) gives
 *   null; returning a promise gives what it settles to. A value JSON cannot hold (a function,
 *   a symbol, a BigInt, a cycle) is an error, where `JSON.stringify` would drop or fail;
 *   anything else is made JSON as `JSON.stringify` makes it (a Date becomes its ISO string).
 * - It runs in QuickJS compiled to WebAssembly, in a runtime and context of its own made for
 *   that run, in a worker thread: nothing of the host is reachable (no network, file system,
 *   process, timers, `require`, `import()`, `fetch`), and nothing it changes outlives it.
 * - Limits: memory (`memoryBytes`), time (`cpuMs`, measured on the worker thread's clock: the
 *   engine is interrupted once it is past), stack depth (`stackBytes`), output size; and for
 *   what goes in, the source's length and the input's size.
 */
export interface CodeLimits {
  /**
   * The memory a run may use, every object, string and buffer it makes ('memory'): the largest
   * allocation QuickJS allows, and the maximum of the run's WebAssembly memory (which holds
   * the engine itself too; a limit below 16 MiB is met at 16 MiB, the engine's initial size).
   */
  memoryBytes: number;
  /** How long the code may run, in milliseconds, before it is interrupted ('timeout'). */
  cpuMs: number;
  /** The output's size in bytes of UTF-8 once serialised as JSON ('output'). */
  outputBytes: number;
  /** The source's length in characters ('syntax'). */
  sourceChars: number;
  /** The input's size in bytes of UTF-8 once serialised as JSON ('memory'). */
  inputBytes: number;
  /**
   * QuickJS's stack limit: deep recursion is a clean 'throw' ("stack overflow"). At most
   * MAX_STACK_BYTES, which the worker thread's own stack is sized for.
   */
  stackBytes: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The worker thread's native stack (`resourceLimits.stackSizeMb`). QuickJS's frames, which it
 * counts against `stackBytes`, run on WebAssembly frames of the thread's native stack, up to
 * 32 times larger for the parser's recursion (measured: 512 KiB of QuickJS stack fits in
 * 16 MiB for every case tried, 1 MiB does not). Past it, V8 would stop the engine from
 * outside instead of QuickJS raising its own error.
 */
export const WORKER_STACK_MB = 16;
/** The largest `stackBytes` allowed: half of what was measured to fit in WORKER_STACK_MB. */
export const MAX_STACK_BYTES = 256 * KiB;

/** The limits of every run, unless a caller passes others. */
export const CODE_LIMITS: Readonly<CodeLimits> = Object.freeze({
  memoryBytes: 64 * MiB,
  cpuMs: 1000,
  outputBytes: 256 * KiB,
  sourceChars: 100_000,
  inputBytes: 4 * MiB,
  stackBytes: MAX_STACK_BYTES,
});

export type CodeErrorKind = 'syntax' | 'throw' | 'timeout' | 'memory' | 'output';

/**
 * Why a run failed:
 * - 'syntax': the source does not parse, or is longer than `sourceChars` (not run);
 * - 'throw': it threw (or a promise it returned was rejected), stack overflow included;
 * - 'timeout': it ran past `cpuMs`, or the worker thread did not answer in time or stopped;
 * - 'memory': it needed more than `memoryBytes`, or its input is larger than `inputBytes`
 *   (not run);
 * - 'output': what it returned is not JSON, is larger than `outputBytes`, or is a promise that
 *   never settles.
 *
 * `line` is the line within the source (1 = its first line) where the error was raised, when
 * known: a syntax error, an Error thrown by the source or by a built-in it called, the line a
 * timeout or a failed allocation interrupted. A thrown value that is not an Error has none,
 * nor has a timeout QuickJS raised at a loop's jump back.
 */
export interface CodeError {
  kind: CodeErrorKind;
  message: string;
  line?: number;
}

/**
 * What a run gave. `durationMs` is the run's time on the worker thread (its engine made, the
 * code compiled, run and serialised), not its wait in the queue; 0 for a run refused before it
 * started; the time waited for a thread that was then stopped.
 */
export type CodeResult =
  | { ok: true; output: unknown; durationMs: number }
  | { ok: false; error: CodeError; durationMs: number };
