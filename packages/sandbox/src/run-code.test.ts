import { afterAll, describe, expect, it } from 'vitest';
import { CODE_LIMITS, type CodeErrorKind, type CodeResult } from './limits.ts';
import { closeSandbox, configureSandbox, runCode } from './run-code.ts';

afterAll(closeSandbox);

function failure(result: CodeResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.output)}`);
  return result.error;
}

function output(result: CodeResult): unknown {
  if (!result.ok) throw new Error(`expected an output, got ${JSON.stringify(result.error)}`);
  return result.output;
}

/**
 * Run after each escape or limit attempt: the next run sees a pristine context and its own
 * input, whatever the one before did.
 */
async function expectNextRunClean(): Promise<void> {
  const canary = await runCode(
    'return [input.n, typeof globalThis.polluted, Object.keys(Object.prototype), typeof [].push, JSON.stringify([1])]',
    { n: 42 },
  );
  expect(output(canary)).toEqual([42, 'undefined', [], 'function', '[1]']);
}

describe('runCode: what a CODE step returns', () => {
  it('returns what the body returns, with the input it was given', async () => {
    const input = {
      trigger: { body: { email: 'a@b.c' } },
      record: null,
      steps: [{ output: 1 }],
      item: 2,
      loop: null,
    };
    expect(
      output(await runCode('return { email: input.trigger.body.email, n: input.steps.length }', input)),
    ).toEqual({
      email: 'a@b.c',
      n: 1,
    });
  });

  it('gives null for undefined, for a body without return and for an empty body', async () => {
    expect(output(await runCode('return undefined', {}))).toBeNull();
    expect(output(await runCode('const a = 1;', {}))).toBeNull();
    expect(output(await runCode('', {}))).toBeNull();
  });

  it('returns a Date and nested objects in their JSON form', async () => {
    const result = await runCode(
      'return { at: new Date(0), nested: { list: [1, "two", { three: null }], gone: undefined }, nan: NaN }',
      {},
    );
    expect(output(result)).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      nested: { list: [1, 'two', { three: null }] },
      nan: null,
    });
  });

  it('settles a returned promise: its value, its rejection, or an error when it never settles', async () => {
    expect(output(await runCode('return Promise.resolve(1).then((n) => n + 1)', {}))).toBe(2);
    expect(failure(await runCode("return Promise.reject(new TypeError('no'))", {}))).toMatchObject({
      kind: 'throw',
      message: 'TypeError: no',
      line: 1,
    });
    expect(failure(await runCode('return new Promise(() => {})', {}))).toMatchObject({
      kind: 'output',
      message: expect.stringMatching(/never settled/),
    });
  });

  it.each([
    ['a function', 'return () => 1', /a function is not JSON/],
    ['a nested function', 'return { a: { f() {} } }', /a function is not JSON \(at key "f"\)/],
    ['a cycle', 'const a = {}; a.self = a; return a', /circular/],
    ['a BigInt', 'return { n: 10n }', /a BigInt is not JSON \(at key "n"\)/],
    ['a symbol', "return Symbol('s')", /a symbol is not JSON/],
  ])('fails with kind output when it returns %s', async (_, source, message) => {
    const error = failure(await runCode(source, {}));
    expect(error).toEqual({ kind: 'output', message: expect.stringMatching(message) });
    expect(error.message).toMatch(/^The returned value is not JSON: /);
  });

  it('accepts an output of exactly outputBytes once serialised, and no byte more', async () => {
    const limit = CODE_LIMITS.outputBytes;
    // A JSON string is its characters and two quotes; 'é' is two bytes in UTF-8.
    expect(output(await runCode(`return 'x'.repeat(${limit - 2})`, {}))).toHaveLength(limit - 2);
    expect(failure(await runCode(`return 'x'.repeat(${limit - 1})`, {}))).toEqual({
      kind: 'output',
      message: `The output is at least 262,145 bytes once serialised; the limit is 262,144 bytes`,
    });
    expect(output(await runCode(`return 'é'.repeat(${(limit - 2) / 2})`, {}))).toHaveLength((limit - 2) / 2);
    expect(failure(await runCode(`return 'é'.repeat(${(limit - 2) / 2 + 1})`, {}))).toMatchObject({
      kind: 'output',
      message: 'The output is 262,146 bytes once serialised; the limit is 262,144 bytes',
    });
    await expectNextRunClean();
  });

  it('reports a syntax error with its line within the source', async () => {
    const error = failure(await runCode('const a = 1;\nconst b = 2;\nconst c = ;\nreturn c;', {}));
    expect(error).toMatchObject({
      kind: 'syntax',
      line: 3,
      message: expect.stringMatching(/^SyntaxError: /),
    });
    // Windows line ends count as one.
    expect(failure(await runCode('const a = 1;\r\n\r\nlet let = 2;', {}))).toMatchObject({
      kind: 'syntax',
      line: 3,
    });
    // An unclosed brace is found past the source's end: its last line.
    expect(failure(await runCode('if (input) {\n  return 1;\n', {}))).toMatchObject({
      kind: 'syntax',
      line: 3,
    });
    expect(failure(await runCode("import fs from 'fs';\nreturn fs", {}))).toMatchObject({
      kind: 'syntax',
      line: 1,
    });
  });

  it('reports a throw with the line it was thrown on', async () => {
    const error = failure(await runCode("const a = 1;\nconst b = 2;\nthrow new Error('boom');\n", {}));
    expect(error).toEqual({ kind: 'throw', message: 'Error: boom', line: 3 });
    // An error raised by a built-in the source called: the source's line that called it.
    expect(failure(await runCode("const a = 1;\nreturn JSON.parse('{');", {}))).toMatchObject({
      kind: 'throw',
      message: expect.stringMatching(/^SyntaxError: /),
      line: 2,
    });
    // A thrown value that is not an Error has no line.
    expect(failure(await runCode("throw 'plain'", {}))).toEqual({ kind: 'throw', message: 'plain' });
    expect(failure(await runCode('throw { code: 7 }', {}))).toEqual({ kind: 'throw', message: '{"code":7}' });
  });
});

describe('runCode: escape attempts and limits fail cleanly, and the next run is unaffected', () => {
  const cases: [name: string, source: string, kind: CodeErrorKind, message: RegExp][] = [
    [
      "require('fs')",
      "return require('fs').readFileSync('/etc/passwd', 'utf8')",
      'throw',
      /'require' is not defined/,
    ],
    ['process.exit()', 'process.exit(1)', 'throw', /'process' is not defined/],
    ["dynamic import('fs')", "return import('fs')", 'throw', /could not load module 'fs'/],
    ['fetch', "return fetch('http://x')", 'throw', /'fetch' is not defined/],
    [
      'the Function constructor through this',
      "return this.constructor.constructor('return process')()",
      'throw',
      /'process' is not defined/,
    ],
    [
      'WebAssembly',
      'return new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))',
      'throw',
      /'WebAssembly' is not defined/,
    ],
    [
      'Atomics.wait',
      'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10000)',
      'throw',
      /'Atomics' is not defined/,
    ],
    ['setTimeout', 'setTimeout(() => {}, 10)', 'throw', /'setTimeout' is not defined/],
    ['setInterval', 'setInterval(() => {}, 10)', 'throw', /'setInterval' is not defined/],
    ['deep recursion', 'function f(n) {\n  return f(n + 1) + 1;\n}\nreturn f(0);', 'throw', /stack overflow/],
    [
      'deep recursion in the parser',
      "return eval('('.repeat(100000) + ')'.repeat(100000))",
      'throw',
      /stack overflow/,
    ],
    ['deep recursion in JSON.parse', "return JSON.parse('['.repeat(1000000))", 'throw', /stack overflow/],
    ['new Array(1e9).fill(1)', 'return new Array(1e9).fill(1)', 'memory', /64 MiB/],
    ["'x'.repeat(2**30)", "return 'x'.repeat(2 ** 30)", 'memory', /64 MiB/],
    ['new ArrayBuffer(2**30)', 'return new ArrayBuffer(2 ** 30)', 'memory', /64 MiB/],
    ['a string doubled until it fails', "let s = 'x';\nwhile (true) s += s;", 'memory', /64 MiB/],
    [
      'a list of strings grown until it fails',
      "const a = [];\nfor (;;) a.push('x'.repeat(1 << 20) + a.length);",
      'memory',
      /64 MiB/,
    ],
    [
      'typed arrays kept until they fail',
      'const a = [];\nfor (;;) a.push(new Uint8Array(1 << 20));',
      'memory',
      /64 MiB/,
    ],
    [
      'small objects kept until they fail',
      'const a = [];\nfor (;;) a.push({ n: a.length, s: String(a.length).padEnd(200) });',
      'memory',
      /64 MiB/,
    ],
  ];

  it.each(cases)('%s', async (_, source, kind, message) => {
    // Filling 64 MiB takes up to a second on a busy machine: the memory cases get the time to
    // reach the memory limit before the time limit.
    const limits = kind === 'memory' ? { cpuMs: 10_000 } : {};
    const error = failure(await runCode(source, { n: 1 }, limits));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
    await expectNextRunClean();
  });

  it('Function() reaches no process: the global object is the language and nothing of the host', async () => {
    expect(output(await runCode("return Function('return globalThis.process')()", {}))).toBeNull();
    const names = output(await runCode('return Object.getOwnPropertyNames(globalThis)', {})) as string[];
    const host = [
      'process',
      'require',
      'module',
      'Buffer',
      'fetch',
      'setTimeout',
      'setInterval',
      'setImmediate',
    ];
    const more = [
      'queueMicrotask',
      'WebAssembly',
      'Atomics',
      'std',
      'os',
      'console',
      'XMLHttpRequest',
      'WebSocket',
    ];
    for (const name of [...host, ...more]) expect(names).not.toContain(name);
    // Everything there is ECMAScript's (QuickJS adds InternalError and the Iterator helpers).
    const language = new Set([
      ...['Object', 'Function', 'Array', 'Number', 'parseFloat', 'parseInt', 'Infinity', 'NaN', 'undefined'],
      ...['Boolean', 'String', 'Symbol', 'Date', 'Promise', 'RegExp', 'Error', 'AggregateError', 'EvalError'],
      ...[
        'RangeError',
        'ReferenceError',
        'SyntaxError',
        'TypeError',
        'URIError',
        'InternalError',
        'globalThis',
      ],
      ...[
        'JSON',
        'Math',
        'Intl',
        'ArrayBuffer',
        'SharedArrayBuffer',
        'Uint8Array',
        'Int8Array',
        'Uint16Array',
      ],
      ...['Int16Array', 'Uint32Array', 'Int32Array', 'Float16Array', 'Float32Array', 'Float64Array'],
      ...['Uint8ClampedArray', 'BigUint64Array', 'BigInt64Array', 'DataView', 'Map', 'BigInt', 'Set'],
      ...['WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Proxy', 'Reflect', 'decodeURI'],
      ...['decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'eval', 'isFinite'],
      ...['isNaN', 'Iterator'],
    ]);
    expect(names.filter((name) => !language.has(name))).toEqual([]);
  });

  it('changes to the prototypes of what it is given stay in its run', async () => {
    const input = { record: { id: 'r1' } };
    const changed = await runCode(
      'input.__proto__.polluted = 1;\nObject.prototype.x = 1;\nArray.prototype.push = null;\nJSON.stringify = () => "{}";\nreturn { seen: ({}).polluted }',
      input,
    );
    expect(output(changed)).toEqual({ seen: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('x');
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    await expectNextRunClean();
  });

  it('an output with a __proto__ key is an own key on the host, not a prototype', async () => {
    const result = output(
      await runCode('return JSON.parse(\'{"__proto__": {"polluted": 1}}\')', {}),
    ) as object;
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops an endless loop after cpuMs, with the loop line, and keeps the host event loop free', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      // Started together: the second waits for the pool's one thread, and both finish.
      const [looped, next] = await Promise.all([
        runCode('const a = [];\nfor (let i = 0; ; i++) {\n  if (i % 2) a.pop(); else a.push(i);\n}', {}),
        runCode('return input.n * 2', { n: 21 }),
      ]);
      expect(failure(looped)).toMatchObject({
        kind: 'timeout',
        message: 'The code ran for longer than its 1000 ms',
      });
      // The line, when QuickJS knows it: not when it stops the loop at its jump back.
      expect([undefined, 3]).toContain(failure(looped).line);
      expect(looped.durationMs).toBeGreaterThanOrEqual(1000);
      expect(output(next)).toBe(42);
      // A 10 ms interval over more than a second: it kept running (a blocked event loop would
      // have run it once, at the end). How often depends on the machine's load, not counted.
      expect(ticks).toBeGreaterThan(5);
    } finally {
      clearInterval(timer);
    }
    await expectNextRunClean();
  });

  it('counts every allocation against memoryBytes, and lets a run use most of it', async () => {
    // 40 MiB kept: under the 64 MiB of the default limit, over the 32 MiB of a smaller one.
    const source =
      'const a = [];\nfor (let i = 0; i < 40; i++) a.push(new Uint8Array(1 << 20));\nreturn a.length;';
    expect(output(await runCode(source, {}))).toBe(40);
    expect(failure(await runCode(source, {}, { memoryBytes: 32 * 1024 * 1024 }))).toMatchObject({
      kind: 'memory',
      message: 'The code used more than its 32 MiB of memory (InternalError: out of memory)',
      line: 2,
    });
  });

  it('gives no line for a timeout in a loop that calls nothing (QuickJS does not know it)', async () => {
    const error = failure(await runCode('const a = 1;\nwhile (true) {}', {}, { cpuMs: 100 }));
    expect(error).toEqual({ kind: 'timeout', message: 'The code ran for longer than its 100 ms' });
  });

  it('stops a thread whose run the engine does not interrupt in time, and runs the next on a new one', async () => {
    // QuickJS polls its interrupt handler every so many operations: a loop of slow built-ins
    // goes tens of seconds between polls. The host's own deadline (cpuMs + graceMs) stops it.
    await closeSandbox();
    const previous = configureSandbox({ graceMs: 400 });
    try {
      const error = failure(await runCode("for (;;) 'x'.repeat(1 << 20);", {}, { cpuMs: 100 }));
      expect(error).toEqual({
        kind: 'timeout',
        message: "The sandbox's worker thread did not answer within 500 ms and was stopped",
      });
      // Stopped from outside (the message says so): the engine would have gone on for about 25 s.
      await expectNextRunClean();
    } finally {
      await closeSandbox();
      configureSandbox(previous);
    }
  });

  it('takes other limits than the defaults', async () => {
    const looped = await runCode('for (;;) {}', {}, { cpuMs: 200 });
    expect(failure(looped)).toEqual({ kind: 'timeout', message: 'The code ran for longer than its 200 ms' });
    expect(looped.durationMs).toBeGreaterThanOrEqual(200);
    expect(failure(await runCode("return 'x'.repeat(1 << 20)", {}, { memoryBytes: 512 * 1024 })).kind).toBe(
      'memory',
    );
    expect(failure(await runCode('return [1, 2, 3]', {}, { outputBytes: 6 })).kind).toBe('output');
    await expect(runCode('', {}, { cpuMs: 0 })).rejects.toThrow(/cpuMs must be a positive number/);
  });

  it('refuses a source or an input over its limit without running it, and an input that is not JSON', async () => {
    expect(failure(await runCode('x'.repeat(CODE_LIMITS.sourceChars + 1), {}))).toEqual({
      kind: 'syntax',
      message: 'The source is 100,001 characters; the limit is 100,000',
    });
    expect(failure(await runCode('return 1', { big: 'x'.repeat(100) }, { inputBytes: 50 }))).toEqual({
      kind: 'memory',
      message: 'The input is 110 bytes as JSON; the limit is 50',
    });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    await expect(runCode('return 1', cycle)).rejects.toThrow(/circular/);
    await expect(runCode('return 1', { n: 1n })).rejects.toThrow(TypeError);
    await expect(runCode('return 1', () => 1)).rejects.toThrow('runCode: the input is not JSON');
  });
});

/** A seeded generator (mulberry32): a failure prints its seed, and SANDBOX_SEED replays it. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const strings = [
    '',
    'a',
    '__proto__',
    'constructor',
    'é',
    '日本',
    '😀',
    '\u2028',
    '\ud800',
    '\udc00x',
    '"\\',
    '\0',
    'toJSON',
  ];
  const numbers = [0, -0, 1, -1, 0.1, 1e21, -1e-7, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, 123456.789];
  const string = (): string => {
    let s = '';
    const length = int(6);
    for (let i = 0; i < length; i++) s += next() < 0.5 ? pick(strings) : String.fromCharCode(int(0x10000));
    return s;
  };
  const value = (depth: number): unknown => {
    const kind = int(depth > 3 ? 4 : 6);
    if (kind === 0) return pick([null, true, false]);
    if (kind === 1) return next() < 0.5 ? pick(numbers) : (next() - 0.5) * 10 ** int(30);
    if (kind === 2 || kind === 3) return string();
    if (kind === 4) return Array.from({ length: int(5) }, () => value(depth + 1));
    const object: Record<string, unknown> = {};
    for (let i = int(5); i > 0; i--) object[string()] = value(depth + 1);
    return object;
  };
  return () => value(0);
}

describe('runCode: `return input` gives the input back', () => {
  const seed = Number(process.env.SANDBOX_SEED ?? Date.now() % 1_000_000);

  it(`for generated JSON values (seed ${seed})`, async () => {
    const nextValue = generator(seed);
    for (let i = 0; i < 150; i++) {
      const value = nextValue();
      const result = await runCode('return input', value);
      // What the host means by the value is its JSON form: -0 is 0, a lone surrogate escaped.
      expect(output(result), `seed ${seed}, value ${i}: ${JSON.stringify(value)}`).toEqual(
        JSON.parse(JSON.stringify(value)),
      );
    }
  });
});
