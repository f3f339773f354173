import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * `npm start` runs the server from dist/main.mjs (scripts/build-server.mjs, docs/operations.md
 * "Memory"); faults/start-command.test.ts starts it for real. Here: the build is made, and
 * what it holds only works where it is: imports of installed packages by the files they are
 * now, and each source's own `import.meta.url`.
 */

const serverRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = resolve(serverRoot, 'dist/main.mjs');

describe('the server build', () => {
  it('bundles the sources, imports installed packages by their files, and keeps each source’s location', async () => {
    await promisify(execFile)(process.execPath, [resolve(serverRoot, 'scripts/build-server.mjs')], {
      cwd: serverRoot,
      timeout: 120_000,
    });
    const { isServerStale } = (await import(resolve(serverRoot, 'scripts/build-server.mjs'))) as {
      isServerStale: () => boolean;
    };
    expect(isServerStale()).toBe(false);
    const text = readFileSync(bundle, 'utf8');
    const specifiers = [...text.matchAll(/(?:^|\n)\s*import\s[^;]*?from\s+"([^"]+)"/g)].map((m) => m[1]!);
    const dynamic = [...text.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(specifiers.length).toBeGreaterThan(10);
    for (const spec of [...specifiers, ...dynamic]) {
      if (spec.startsWith('node:')) continue;
      expect(spec).toMatch(/^file:\/\//);
      expect(existsSync(fileURLToPath(spec)), spec).toBe(true);
    }
    // The migrations and the web app are found from the files that name them, not from dist/.
    expect(text).not.toContain('import.meta.url');
    expect(text).toContain(
      JSON.stringify(new URL('../../../packages/db/src/migrate.ts', import.meta.url).href),
    );
  }, 150_000);
});
