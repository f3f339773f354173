// @ts-check
/**
 * One run of a CODE step's source in QuickJS (docs/decisions/0012-code-sandbox.md). This file
 * is JavaScript, not TypeScript, because it is loaded by the worker thread (engine-worker.mjs)
 * as Node loads it, both when the repository runs its TypeScript sources and when the server
 * runs from its esbuild bundle, on Node 20, which runs no TypeScript by itself. `tsc` checks it
 * through the JSDoc types (`checkJs` in the package's tsconfig.json).
 *
 * What the source can reach is what QuickJS's standard library offers and nothing else: no
 * host function is exposed, no module loader is set (`import()` rejects), and there is no
 * `std`/`os` module, no timers, no `fetch`, no `require`, no `process`, no `WebAssembly`, no
 * `Atomics`. The input goes in as a JSON string parsed inside; the output comes out as a string
 * made by `JSON.stringify` inside, its length checked before it is copied out.
 */
/** @typedef {import('quickjs-emscripten').QuickJSContext} QuickJSContext */
/** @typedef {import('quickjs-emscripten').QuickJSHandle} QuickJSHandle */
/** @typedef {import('./limits.ts').CodeLimits} CodeLimits */
/** @typedef {import('./limits.ts').CodeError} CodeError */
/** @typedef {import('./protocol.ts').RunRequest} RunRequest */
/** @typedef {import('./protocol.ts').RunReply} RunReply */

/** The file name QuickJS gives the step's source in stacks and syntax errors. */
const SOURCE_FILE = 'code.js';

/**
 * The source is the body of this function. The wrapper's first line comes before the source's
 * first line: a line QuickJS reports is the source's line plus WRAPPER_LINES. A source that
 * closes the function early (`}); …`) only runs code while it is compiled, in the same context
 * and under the same limits: it reaches nothing more.
 */
const WRAPPER_HEAD = '(function (input) {\n';
const WRAPPER_TAIL = '\n})';
const WRAPPER_LINES = 1;

/** Time to describe an error once the run's own time is up (its `message`, `stack`). */
const DESCRIBE_GRACE_MS = 100;
/** An error message longer than this is cut: it is shown to a user, not processed. */
const MESSAGE_CHARS = 2000;

/**
 * Evaluated before the step's source, in the same context: the functions the host calls, made
 * of the built-ins as they were before the source ran (the source may replace `JSON.stringify`
 * or `Function.prototype.call`; it cannot reach these, which only the host holds a handle to).
 */
const DRIVER = `(() => {
  const { parse, stringify } = JSON;
  const { apply } = Reflect;
  const NativePromise = Promise;
  const NativeError = Error;
  const toText = String;
  const replacer = function (key, value) {
    const type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'bigint') {
      const at = key === '' ? '' : ' (at key ' + stringify(toText(key)) + ')';
      throw new TypeError('a ' + (type === 'bigint' ? 'BigInt' : type) + ' is not JSON' + at);
    }
    return value;
  };
  const cut = (text) => (text.length > ${MESSAGE_CHARS} ? text.slice(0, ${MESSAGE_CHARS}) + '…' : text);
  return {
    call: (fn, inputJson) => apply(fn, undefined, [parse(inputJson)]),
    isPromise: (value) => value instanceof NativePromise,
    serialize: (value) => {
      if (value === undefined) return 'null';
      return stringify(value, replacer);
    },
    describe: (error) => {
      if (error instanceof NativeError) {
        const name = typeof error.name === 'string' ? error.name : 'Error';
        const message = typeof error.message === 'string' ? error.message : '';
        const stack = typeof error.stack === 'string' ? error.stack : '';
        return stringify({ error: true, name, message: cut(message), stack: cut(stack) });
      }
      let text;
      try {
        text = typeof error === 'object' && error !== null ? stringify(error) : undefined;
      } catch {}
      return stringify({ error: false, message: cut(text ?? toText(error)) });
    },
  };
})()`;

/** @typedef {{ error: boolean; name?: string; message: string; stack?: string }} Described */

/**
 * Runs `request.source` as the body of `function (input)` in a new runtime and context of
 * `quickjs` (an instance used for this run only), within `request.limits`.
 * @param {import('quickjs-emscripten').QuickJSWASMModule} quickjs
 * @param {RunRequest} request
 * @param {() => boolean} memoryFull whether the instance's memory is (nearly) at its maximum
 * @returns {RunReply['result']}
 */
export function evaluate(quickjs, request, memoryFull = () => false) {
  const started = performance.now();
  const { limits } = request;
  const source = request.source.replace(/\r\n?/g, '\n');
  const sourceLines = source.split('\n').length;
  const finish = (/** @type {Omit<CodeError, 'line'> & { line?: number | undefined }} */ error) => {
    const durationMs = Math.round(performance.now() - started);
    /** @type {CodeError} */
    const clean = { kind: error.kind, message: error.message };
    if (error.line !== undefined) clean.line = error.line;
    return /** @type {const} */ ({ ok: false, error: clean, durationMs });
  };

  // The engine's own setup is not the code's time: the deadline starts with the compilation.
  let interruptAt = Number.POSITIVE_INFINITY;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(() => Date.now() > interruptAt);
  const context = runtime.newContext();

  const driverResult = context.evalCode(DRIVER, 'driver.js');
  if (driverResult.error) {
    // Only a limit too small for the engine itself gets here.
    const error = JSON.stringify(context.dump(driverResult.error));
    return finish({
      kind: 'memory',
      message: `The sandbox could not start within its memory limit (${error})`,
    });
  }
  const driver = driverResult.value;
  const method = (/** @type {string} */ name) => context.getProp(driver, name);

  /**
   * The error of a failed phase as the run's error. `otherwise` is the kind when the error is
   * none of the limits: 'syntax' while compiling, 'throw' while running, 'output' while
   * serialising.
   * @param {QuickJSHandle} handle
   * @param {CodeError['kind']} otherwise
   */
  const failure = (handle, otherwise) => {
    const timedOut = Date.now() > interruptAt;
    // QuickJS throws null when it has no memory left even for its "out of memory" error.
    if (context.sameValue(handle, context.null) && memoryFull()) {
      const message = `The code used more than its ${mib(limits.memoryBytes)} of memory`;
      return finish({ kind: 'memory', message });
    }
    interruptAt = Date.now() + DESCRIBE_GRACE_MS;
    const described = describe(context, method('describe'), driver, handle);
    const line = lineOf(described.stack, sourceLines);
    const full = described.error ? `${described.name}: ${described.message}` : described.message;
    if (described.name === 'InternalError' && described.message === 'interrupted') {
      const message = timedOut
        ? `The code ran for longer than its ${limits.cpuMs} ms`
        : 'The code was interrupted';
      return finish({ kind: 'timeout', message, line });
    }
    if (
      (described.name === 'InternalError' &&
        (described.message === 'out of memory' || described.message === 'string too long')) ||
      (described.name === 'RangeError' && described.message === 'invalid string length')
    ) {
      // A string past the longest QuickJS allows (2^30 - 1 characters) would take a gibibyte
      // or more: whatever the limit, it is a memory error.
      return finish({
        kind: 'memory',
        message: `The code used more than its ${mib(limits.memoryBytes)} of memory (${full})`,
        line,
      });
    }
    if (otherwise === 'syntax' && described.name !== 'SyntaxError') otherwise = 'throw';
    if (otherwise === 'output') {
      return finish({ kind: 'output', message: `The returned value is not JSON: ${described.message}` });
    }
    return finish({ kind: otherwise, message: full, line });
  };

  // 1. Compile: the source becomes a function (its syntax errors are found here).
  interruptAt = Date.now() + limits.cpuMs;
  const compiled = context.evalCode(WRAPPER_HEAD + source + WRAPPER_TAIL, SOURCE_FILE);
  if (compiled.error) return failure(compiled.error, 'syntax');

  // 2. Call it with the input, parsed inside from its JSON.
  const inputJson = context.newString(request.inputJson);
  const called = context.callFunction(method('call'), driver, compiled.value, inputJson);
  if (called.error) return failure(called.error, 'throw');
  let value = called.value;

  // 3. A returned promise is settled by running the jobs it waits for (there are no timers and
  //    no I/O, so what is still pending after them never settles).
  const isPromise = context.callFunction(method('isPromise'), driver, value);
  if (isPromise.error) return failure(isPromise.error, 'throw');
  if (context.dump(isPromise.value) === true) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) return failure(jobs.error, 'throw');
    const state = context.getPromiseState(value);
    if (state.type === 'pending') {
      return finish({
        kind: 'output',
        message: 'The returned promise never settled (a CODE step has no timers or I/O to wait for)',
      });
    }
    if (state.type === 'rejected') return failure(state.error, 'throw');
    value = state.value;
  }

  // 4. Serialise inside, and copy the text out only once its length is known to fit: a string
  //    of n UTF-16 units is at least n bytes in UTF-8.
  const serialized = context.callFunction(method('serialize'), driver, value);
  if (serialized.error) return failure(serialized.error, 'output');
  const text = serialized.value;
  if (context.typeof(text) !== 'string') {
    return finish({ kind: 'output', message: 'The returned value is not JSON (a function or a symbol)' });
  }
  const length = context.getNumber(context.getProp(text, 'length'));
  if (length > limits.outputBytes) return tooLarge(length, limits, started, true);
  const outputJson = context.getString(text);
  const bytes = Buffer.byteLength(outputJson, 'utf8');
  if (bytes > limits.outputBytes) return tooLarge(bytes, limits, started, false);
  return { ok: true, outputJson, durationMs: Math.round(performance.now() - started) };
}

/**
 * @param {number} size
 * @param {CodeLimits} limits
 * @param {number} started
 * @param {boolean} atLeast
 * @returns {RunReply['result']}
 */
function tooLarge(size, limits, started, atLeast) {
  const limit = `${limits.outputBytes.toLocaleString('en')} bytes`;
  const measured = `${atLeast ? 'at least ' : ''}${size.toLocaleString('en')} bytes`;
  return {
    ok: false,
    error: { kind: 'output', message: `The output is ${measured} once serialised; the limit is ${limit}` },
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * What an error is, read inside the sandbox by the driver's `describe` (which may run the
 * source's getters: it runs under the interrupt handler's grace time, and its own failure is
 * an error of unknown content, not a crash).
 * @param {QuickJSContext} context
 * @param {QuickJSHandle} describeFn
 * @param {QuickJSHandle} driver
 * @param {QuickJSHandle} error
 * @returns {Described}
 */
function describe(context, describeFn, driver, error) {
  const result = context.callFunction(describeFn, driver, error);
  if (result.error) return { error: false, message: 'The code failed with a value that could not be read' };
  try {
    return JSON.parse(context.getString(result.value));
  } catch {
    return { error: false, message: 'The code failed with a value that could not be read' };
  }
}

/**
 * The line within the source of the innermost frame of the source in a QuickJS stack
 * ("    at <anonymous> (code.js:3:11)"), or undefined when the error did not come from there.
 * QuickJS gives a frame interrupted in a loop with no call in it the line where its function
 * starts, which for the source's own body is the wrapper's line: no line is known then. A
 * line past the source's last (a syntax error found at the wrapper's closing line, say an
 * unclosed brace) is the source's last line.
 * @param {string | undefined} stack
 * @param {number} sourceLines
 */
function lineOf(stack, sourceLines) {
  for (const match of (stack ?? '').matchAll(/code\.js:(\d+)/g)) {
    const line = Number(match[1]) - WRAPPER_LINES;
    if (line >= 1) return Math.min(line, sourceLines);
  }
  return undefined;
}

/** @param {number} bytes */
function mib(bytes) {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes.toLocaleString('en')} bytes`;
}
