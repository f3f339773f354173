// @ts-check
/**
 * The worker thread's entry (started by pool.ts): answers each RunRequest it is posted with a
 * RunReply, one at a time, each run in a fresh QuickJS WebAssembly instance. JavaScript, so
 * that Node loads it as it is whether the host runs from TypeScript sources or from the
 * server's bundle (evaluate.mjs says why).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { evaluate } from './evaluate.mjs';

/** @typedef {import('./protocol.ts').RunRequest} RunRequest */
/** @typedef {import('./protocol.ts').RunReply} RunReply */

/** A page of WebAssembly memory. */
const PAGE = 65536;
/** The memory QuickJS's build starts with (its INITIAL_MEMORY): static data, its 5 MiB stack, heap. */
const INITIAL_PAGES = (16 * 1024 * 1024) / PAGE;

/**
 * quickjs-emscripten's .wasm, compiled once for the thread: an instance of a compiled module
 * takes about 3 ms, against 6 to 10 ms when each instance reads and compiles the file. Found
 * from the package, whose dependency it is; undefined if it is not where pnpm puts it, and then
 * each instance compiles it.
 */
function compileWasm() {
  try {
    // require.resolve answers the real path, from which pnpm's sibling packages resolve.
    const require = createRequire(import.meta.url);
    const wasmPath = createRequire(require.resolve('quickjs-emscripten')).resolve(
      '@jitl/quickjs-wasmfile-release-sync/wasm',
    );
    return new WebAssembly.Module(readFileSync(wasmPath));
  } catch {
    return undefined;
  }
}

const wasmModule = compileWasm();

/**
 * A fresh QuickJS instance for one run, whose linear memory cannot grow past `memoryBytes`
 * (or the build's initial 16 MiB, when the limit is below it).
 *
 * The memory is ours, not Emscripten's, because QuickJS's own limit (`setMemoryLimit`) refuses
 * an allocation larger than the limit but does not add up allocations in this build: QuickJS
 * counts each block by `malloc_usable_size`, which it takes as 0 under Emscripten
 * (justjake/quickjs-emscripten#271, #255), so many small strings or typed arrays would grow
 * the memory to the 2 GiB the build allows. With a maximum on the WebAssembly.Memory, the
 * allocator gets no more pages past it, malloc fails, and QuickJS throws its "out of memory".
 * Emscripten grows in steps of 5 to 20 %: the last step may be refused a little before the
 * maximum is reached.
 * @param {number} memoryBytes
 */
async function newInstance(memoryBytes) {
  const maximum = Math.max(INITIAL_PAGES, Math.ceil(memoryBytes / PAGE));
  const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum });
  const variant = newVariant(RELEASE_SYNC, wasmModule ? { wasmModule, wasmMemory } : { wasmMemory });
  const quickjs = await newQuickJSWASMModuleFromVariant(variant);
  // Within a growth step of the maximum: an allocation that failed there failed for lack of it.
  const memoryFull = () => wasmMemory.buffer.byteLength >= maximum * PAGE * 0.9;
  return { quickjs, memoryFull };
}

/**
 * One run. An exception out of the engine's host side (V8's own stack overflow in a recursion
 * QuickJS did not catch first, an abort of the WebAssembly) fails the run; the instance it
 * happened in is dropped with the run, so nothing of it is reused.
 * @param {RunRequest} request
 * @returns {Promise<RunReply['result']>}
 */
async function run(request) {
  const started = performance.now();
  try {
    const { quickjs, memoryFull } = await newInstance(request.limits.memoryBytes);
    return evaluate(quickjs, request, memoryFull);
  } catch (error) {
    const stack = error instanceof RangeError && /call stack/i.test(error.message);
    const message = stack
      ? 'InternalError: stack overflow'
      : `The sandbox engine failed: ${error instanceof Error ? error.message : String(error)}`;
    return {
      ok: false,
      error: { kind: 'throw', message },
      durationMs: Math.round(performance.now() - started),
    };
  }
}

const port = parentPort;
if (!port) throw new Error('engine-worker.mjs runs as a worker thread (pool.ts starts it)');
/** @type {import('./limits.ts').CodeLimits} */
const WARM_UP_LIMITS = {
  memoryBytes: 16 * 1024 * 1024,
  cpuMs: 5000,
  outputBytes: 1024,
  sourceChars: 1000,
  inputBytes: 1024,
  stackBytes: 64 * 1024,
};

/**
 * V8 compiles a WebAssembly function when it first runs, for the compiled module and so for
 * every instance of it: the thread's first run would take about 200 ms more. Runs of trivial
 * sources at start, one that returns and one that throws, pay it before a real run waits.
 */
async function warmUp() {
  for (const source of ['return [input, JSON.parse("[1]")]', 'throw new Error(String(input.a))']) {
    await run({ id: 0, source, inputJson: '{"a":1}', limits: WARM_UP_LIMITS });
  }
}

/** @typedef {import('./protocol.ts').ReadyMessage} ReadyMessage */
let queue = warmUp().then(() => {
  /** @type {ReadyMessage} */
  const ready = { ready: true };
  port.postMessage(ready);
});
port.on('message', (/** @type {RunRequest} */ request) => {
  // The host posts one run at a time; should two arrive, the second waits for the first.
  queue = queue.then(async () => {
    const result = await run(request);
    /** @type {RunReply} */
    const reply = { id: request.id, result };
    port.postMessage(reply);
  });
});
