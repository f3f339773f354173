/**
 * The lint rules that hold the layers and the code's habits (docs/architecture.md, "Layers";
 * CONTRIBUTING.md, "Habits") each fail on a planted violation: a tree of small files in a
 * temporary folder, laid out like the repository, is checked with the repository's own
 * `.dependency-cruiser.cjs` and `biome.json`, and every rule must name the file planted for it
 * (and stay quiet on the allowed imports planted beside them).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const depcruiseBin = join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const biomeBin = join(repo, 'node_modules/@biomejs/biome/bin/biome');

interface ForbiddenRule {
  name: string;
  from: { path?: string };
  to: { path?: string };
}
const config = createRequire(import.meta.url)(join(repo, '.dependency-cruiser.cjs')) as {
  forbidden: ForbiddenRule[];
};

/** Runs a command; its output whatever its exit code (both tools exit non-zero on a finding). */
function run(file: string, args: string[], cwd: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [file, ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && !stdout) fail(new Error(`${file} failed: ${stderr || error.message}`));
        else done(stdout);
      },
    );
  });
}

function plant(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** `import { x } from '<to>'` written relative to `from`, as the repository's code does. */
function importOf(from: string, to: string, kind: 'value' | 'type' = 'value'): string {
  const depth = from.split('/').length - 1;
  const specifier = `${'../'.repeat(depth)}${to}`;
  return kind === 'type'
    ? `import type { X } from '${specifier}';\nexport type Y = X;\n`
    : `import { x } from '${specifier}';\nexport const y = x;\n`;
}

/** The first folder a layer rule's `to.path` names: a package that layer may not import. */
function firstForbidden(rule: ForbiddenRule): string {
  const match = /^\^\(([^|)]+)/.exec(rule.to.path ?? '');
  if (!match?.[1]) throw new Error(`${rule.name}: no folder in ${rule.to.path}`);
  return match[1].replace(/\\/g, '');
}

describe('dependency-cruiser: .dependency-cruiser.cjs', () => {
  let root: string;
  let violations: { rule: string; from: string; to: string }[];
  /** Files planted to break one rule each, by rule name. */
  const planted = new Map<string, string>();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'crm-layers-'));
    const files: Record<string, string> = { 'tsconfig.json': '{}\n' };
    // Every workspace package exists, with an index any rule can point at.
    for (const pkg of [
      'apps/server',
      'apps/web',
      'packages/mcp',
      'packages/api',
      'packages/workflows',
      'packages/webhooks',
      'packages/cli',
      'packages/client',
      'packages/sandbox',
      'packages/domain',
      'packages/db',
      'packages/constants',
      'bench',
      'tooling/vitest',
      'tooling/citus',
      'tooling/scripts',
    ]) {
      files[`${pkg}/src/index.ts`] = 'export const x = 1;\nexport type X = number;\n';
    }
    // Two layer rules per package, for its code and for its test helpers (`src/testing/`): an
    // import of the first package each may not import.
    for (const rule of config.forbidden.filter((r) => r.name.startsWith('layer-'))) {
      const from = /^\^\(([^)]+)\)\/(src\/testing\/)?$/.exec(rule.from.path ?? '');
      const pkg = from?.[1]?.replace(/\\/g, '');
      if (!pkg) throw new Error(`${rule.name}: no package in ${rule.from.path}`);
      const file = from?.[2] ? `${pkg}/src/testing/planted-layer.ts` : `${pkg}/src/planted-layer.ts`;
      files[file] = importOf(file, `${firstForbidden(rule)}/src/index.ts`);
      planted.set(rule.name, file);
    }
    const hand: Record<string, [string, string]> = {
      'packages-import-no-app': [
        'packages/constants/src/planted-app.ts',
        importOf('packages/constants/src/planted-app.ts', 'apps/server/src/index.ts'),
      ],
      'client-imports-no-workspace-package': [
        'packages/client/src/planted-constants.ts',
        importOf('packages/client/src/planted-constants.ts', 'packages/constants/src/index.ts'),
      ],
      'web-imports-api-as-types-only': [
        'apps/web/src/planted-api.ts',
        importOf('apps/web/src/planted-api.ts', 'packages/api/src/index.ts'),
      ],
      'web-imports-only-record-values-of-the-domain': [
        'apps/web/src/planted-domain.ts',
        importOf('apps/web/src/planted-domain.ts', 'packages/domain/src/index.ts'),
      ],
      'domain-shared-imports-no-feature': [
        'packages/domain/src/shared/planted.ts',
        importOf('packages/domain/src/shared/planted.ts', 'packages/domain/src/alpha/a.ts'),
      ],
      // alpha/b → beta/c and beta/d → alpha/a: a circle of folders, though no module cycle.
      'domain-no-folder-cycles': [
        'packages/domain/src/alpha/b.ts',
        importOf('packages/domain/src/alpha/b.ts', 'packages/domain/src/beta/c.ts'),
      ],
    };
    for (const [rule, [file, text]] of Object.entries(hand)) {
      files[file] = text;
      planted.set(rule, file);
    }
    Object.assign(files, {
      'packages/domain/src/alpha/a.ts': 'export const x = 1;\n',
      'packages/domain/src/beta/c.ts': 'export const x = 1;\n',
      'packages/domain/src/beta/d.ts': importOf(
        'packages/domain/src/beta/d.ts',
        'packages/domain/src/alpha/a.ts',
      ),
      // Allowed, and must stay quiet: the api's types in the web app, the web app's one module
      // of the domain, a feature on shared, the client's generator on the api, the api and the
      // run engine on the sandbox.
      'packages/domain/src/record-model/record-values.ts': 'export const x = 1;\n',
      'apps/web/src/allowed.ts': [
        importOf('apps/web/src/allowed.ts', 'packages/api/src/index.ts', 'type'),
        "import { x as values } from '../../../packages/domain/src/record-model/record-values.ts';",
        "import { x as vocabulary } from '../../../packages/constants/src/index.ts';",
        'export const allowed = [values, vocabulary];',
        '',
      ].join('\n'),
      'packages/domain/src/shared/base.ts': 'export const x = 1;\n',
      'packages/domain/src/alpha/on-shared.ts': importOf(
        'packages/domain/src/alpha/on-shared.ts',
        'packages/domain/src/shared/base.ts',
      ),
      'packages/client/scripts/generate.ts': importOf(
        'packages/client/scripts/generate.ts',
        'packages/api/src/index.ts',
      ),
      // The sandbox is beside the layers: the api and the run engine import it.
      'packages/api/src/on-sandbox.ts': importOf(
        'packages/api/src/on-sandbox.ts',
        'packages/sandbox/src/index.ts',
      ),
      'packages/workflows/src/on-sandbox.ts': importOf(
        'packages/workflows/src/on-sandbox.ts',
        'packages/sandbox/src/index.ts',
      ),
      // A package's test helpers use the test tooling; its code may not.
      'apps/server/src/testing/on-tooling.ts': importOf(
        'apps/server/src/testing/on-tooling.ts',
        'tooling/vitest/src/index.ts',
      ),
      'apps/server/src/on-tooling.ts': importOf(
        'apps/server/src/on-tooling.ts',
        'tooling/vitest/src/index.ts',
      ),
    });
    plant(root, files);
    const out = await run(
      depcruiseBin,
      [
        'apps',
        'packages',
        'tooling',
        'bench',
        '--config',
        join(repo, '.dependency-cruiser.cjs'),
        '--no-cache',
        '--output-type',
        'json',
      ],
      root,
    );
    const result = JSON.parse(out) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[] };
    };
    violations = result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
  }, 120_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('has a planted violation for every rule of the configuration', () => {
    expect([...planted.keys()].sort()).toEqual(config.forbidden.map((r) => r.name).sort());
  });

  for (const rule of config.forbidden) {
    it(`${rule.name} fires on the file planted for it`, () => {
      const file = planted.get(rule.name);
      const hits = violations.filter((v) => v.rule === rule.name);
      if (rule.name === 'domain-no-folder-cycles') {
        // A folder rule names folders: the circle alpha → beta → alpha.
        expect(hits.map((v) => [v.from, v.to])).toContainEqual([
          'packages/domain/src/alpha',
          'packages/domain/src/beta',
        ]);
      } else {
        expect(hits.map((v) => v.from)).toContain(file);
      }
    });
  }

  it('stays quiet on the allowed imports planted beside them', () => {
    const allowed = [
      'apps/web/src/allowed.ts',
      'packages/domain/src/alpha/on-shared.ts',
      'packages/client/scripts/generate.ts',
      'packages/api/src/on-sandbox.ts',
      'packages/workflows/src/on-sandbox.ts',
      'apps/server/src/testing/on-tooling.ts',
    ];
    expect(violations.filter((v) => allowed.includes(v.from))).toEqual([]);
  });

  it("fires on a package's code that imports the test tooling", () => {
    expect(violations).toContainEqual({
      rule: 'layer-apps-server',
      from: 'apps/server/src/on-tooling.ts',
      to: 'tooling/vitest/src/index.ts',
    });
  });
});

describe('dependency-cruiser on the repository itself', () => {
  it('sees the imports by package name (`@crm/*`) as edges to the packages’ sources, test helpers included', async () => {
    const out = await run(
      depcruiseBin,
      [
        'apps/server/src/app.ts',
        'apps/server/src/testing/test-app.ts',
        '--config',
        '.dependency-cruiser.cjs',
        '--no-cache',
        '--output-type',
        'json',
      ],
      repo,
    );
    const modules = (
      JSON.parse(out) as {
        modules: { source: string; dependencies: { module: string; resolved: string }[] }[];
      }
    ).modules;
    const edges = (source: string) =>
      Object.fromEntries(
        (modules.find((m) => m.source === source)?.dependencies ?? [])
          .filter((d) => d.module.startsWith('@crm/'))
          .map((d) => [d.module, d.resolved]),
      );
    expect(edges('apps/server/src/app.ts')).toMatchObject({
      '@crm/api': 'packages/api/src/index.ts',
      '@crm/domain': 'packages/domain/src/index.ts',
    });
    expect(edges('apps/server/src/testing/test-app.ts')).toMatchObject({
      '@crm/domain': 'packages/domain/src/index.ts',
    });
  }, 120_000);
});

describe('Biome: biome.json', () => {
  let root: string;
  let findings: { rule: string; file: string }[];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'crm-biome-'));
    copyFileSync(join(repo, 'biome.json'), join(root, 'biome.json'));
    const bang = 'export const size = (list: string[] | undefined) => list!.length;\n';
    const env = 'export const port = process.env.PORT;\n';
    plant(root, {
      'packages/x/src/bang.ts': bang,
      'packages/x/src/bang.test.ts': bang,
      'packages/x/src/testing/helper.ts': bang,
      'packages/x/src/config.ts': env,
      'packages/x/src/env.ts': env,
      'packages/x/scripts/run.ts': env,
      'packages/x/src/floating.ts': [
        'async function work(): Promise<void> {}',
        'export function start(): void {',
        '  work();',
        '}',
        '',
      ].join('\n'),
      'packages/x/src/misused.ts': [
        'export function ready(loaded: Promise<boolean>): number {',
        '  if (loaded) return 1;',
        '  return 0;',
        '}',
        '',
      ].join('\n'),
    });
    const out = await run(biomeBin, ['lint', '--reporter=github', '--max-diagnostics=100', '.'], root);
    findings = [...out.matchAll(/title=lint\/\w+\/(\w+),file=([^,]+),/g)].map((m) => ({
      rule: m[1] ?? '',
      file: (m[2] ?? '').replace(`${root}/`, ''),
    }));
  }, 120_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const filesOf = (rule: string) => findings.filter((f) => f.rule === rule).map((f) => f.file);

  it('noNonNullAssertion fires in production code, not in tests or test helpers', () => {
    expect(filesOf('noNonNullAssertion')).toEqual(['packages/x/src/bang.ts']);
  });

  it('noProcessEnv fires outside env.ts files and scripts', () => {
    expect(filesOf('noProcessEnv')).toEqual(['packages/x/src/config.ts']);
  });

  it('noFloatingPromises fires on a promise nobody awaits', () => {
    expect(filesOf('noFloatingPromises')).toEqual(['packages/x/src/floating.ts']);
  });

  it('noMisusedPromises fires on a promise used as a condition', () => {
    expect(filesOf('noMisusedPromises')).toEqual(['packages/x/src/misused.ts']);
  });
});
