import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency patches (docs/decisions/0010-two-patches-remain.md) hold only while the
 * version they were written for is the one installed, and while upstream still has what they
 * mend. Each is checked here: installed at its version, applied, and still needed where that
 * can be read from the package itself; a new version of a patched package fails this test, so
 * that someone decides whether the patch goes (its pull request upstream merged) or is made
 * again for the new version.
 */
const root = join(import.meta.dirname, '..', '..');
const store = join(root, 'node_modules', '.pnpm');

interface Patch {
  name: string;
  version: string;
  file: string;
}

/** `patchedDependencies` of pnpm-workspace.yaml: `"<name>@<version>": <patch file>`. */
function patches(): Patch[] {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const section = /^patchedDependencies:\n((?: {2}.+\n)+)/m.exec(text)?.[1] ?? '';
  return section
    .trim()
    .split('\n')
    .map((line) => {
      const [, spec = '', file = ''] = /^\s*"?([^"]+?)"?:\s*(\S+)\s*$/.exec(line) ?? [];
      const at = spec.lastIndexOf('@');
      return { name: spec.slice(0, at), version: spec.slice(at + 1), file };
    });
}

/** The installed copy of a patched package: pnpm keeps it under `<name>@<version>_patch_hash=…`. */
function installedDir(patch: Patch): string {
  const prefix = `${patch.name.replace('/', '+')}@${patch.version}_patch_hash=`;
  const found = readdirSync(store).filter((entry) => entry.startsWith(prefix));
  expect(found, `${patch.name}@${patch.version} is installed, patched`).toHaveLength(1);
  return join(store, found[0] as string, 'node_modules', patch.name);
}

/** Each file a patch changes, with the lines it adds. */
function addedLines(patchText: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of patchText.split('\n')) {
    const target = /^\+\+\+ b\/(.+)$/.exec(line);
    if (target) {
      current = [];
      files.set(target[1] as string, current);
    } else if (current && line.startsWith('+') && line.trim() !== '+') {
      current.push(line.slice(1));
    }
  }
  return files;
}

describe('the dependency patches', () => {
  const all = patches();

  it('are the two of decision 0010', () => {
    expect(all.map((p) => p.name).sort()).toEqual(['@trpc/server', 'graphile-worker']);
  });

  for (const patch of all) {
    it(`${patch.name}@${patch.version}: installed at the patched version, with the patch applied`, () => {
      const dir = installedDir(patch);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
      expect(pkg.version).toBe(patch.version);
      const text = readFileSync(join(root, patch.file), 'utf8');
      for (const [file, lines] of addedLines(text)) {
        expect(existsSync(join(dir, file)), file).toBe(true);
        const installed = readFileSync(join(dir, file), 'utf8');
        for (const line of lines) expect(installed, `${file}: ${line.trim()}`).toContain(line);
      }
    });
  }

  it('@trpc/server: its build still lowers object spreads to a helper, which is what the patch undoes on the call path', () => {
    const trpc = all.find((p) => p.name === '@trpc/server');
    expect(trpc).toBeDefined();
    const dist = join(installedDir(trpc as Patch), 'dist');
    const helper = readdirSync(dist, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.mjs'))
      .some((file) => readFileSync(join(dist, file), 'utf8').includes('function _objectSpread2('));
    // Gone once upstream builds for ES2018 (the pull request in decision 0010): then the patch
    // is not needed, and goes.
    expect(helper).toBe(true);
  });
});
