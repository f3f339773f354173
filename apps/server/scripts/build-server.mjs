#!/usr/bin/env node
// Builds the server into one JavaScript module, dist/main.mjs, when it is missing or older
// than any source it is made of, so `npm start` runs plain JavaScript (docs/operations.md,
// "Memory"): the TypeScript loader that ran the sources before kept a thread of its own and
// about 60 MiB of memory for as long as the server ran.
//
// The project's own code (apps/server and every @crm package it imports) is bundled; every
// other package stays a separate import, resolved where it is installed now, as Node would
// resolve it from the importing source file. Each source keeps its own `import.meta.url`, so
// paths it finds from its own place (migrations, the web app's files, package.json) are as
// when it runs unbundled.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const serverRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(serverRoot, '../..');
export const SERVER_BUNDLE = join(serverRoot, 'dist', 'main.mjs');

/** The newest modification time under `path` of what goes into the bundle (tests aside). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return /\.test\.ts$/.test(path) ? 0 : info.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** True when dist/main.mjs has to be (re)built: a source, a manifest or the install is newer. */
export function isServerStale() {
  if (!existsSync(SERVER_BUNDLE)) return true;
  const packages = join(repoRoot, 'packages');
  const inputs = [
    join(serverRoot, 'src'),
    join(serverRoot, 'package.json'),
    ...readdirSync(packages).flatMap((name) => [
      join(packages, name, 'src'),
      join(packages, name, 'package.json'),
    ]),
    // A new install moves the packages the bundle imports by their installed paths.
    join(repoRoot, 'pnpm-lock.yaml'),
    join(repoRoot, 'node_modules', '.modules.yaml'),
    fileURLToPath(import.meta.url),
  ];
  return Math.max(...inputs.map(newest)) > statSync(SERVER_BUNDLE).mtimeMs;
}

/** Imports of other packages stay imports, of the file Node would load for that source. */
const installedPackages = {
  name: 'installed-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@crm/') || args.pluginData === 'resolving') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: pathToFileURL(found.path).href, external: true };
    });
  },
};

/** Each source's `import.meta.url` is its own file's, not the bundle's. */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: 'ts',
      };
    });
  },
};

/**
 * Builds dist/main.mjs if it is stale. Several processes may start at once: each builds into a
 * file of its own and renames it over the bundle, so none ever loads a half-written one.
 */
export async function ensureServerBuilt({ log = console.log } = {}) {
  if (!isServerStale()) return { built: false };
  const started = Date.now();
  mkdirSync(dirname(SERVER_BUNDLE), { recursive: true });
  const partial = join(dirname(SERVER_BUNDLE), `main.${randomUUID()}.partial.mjs`);
  try {
    await esbuild.build({
      entryPoints: [join(serverRoot, 'src', 'main.ts')],
      outfile: partial,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      // Names as written: errors are logged by their class's name.
      keepNames: true,
      sourcemap: 'external',
      logLevel: 'warning',
      plugins: [installedPackages, ownImportMetaUrl],
    });
    renameSync(`${partial}.map`, `${SERVER_BUNDLE}.map`);
    renameSync(partial, SERVER_BUNDLE);
  } finally {
    rmSync(partial, { force: true });
    rmSync(`${partial}.map`, { force: true });
    // esbuild's service process would otherwise live as long as the server.
    await esbuild.stop();
  }
  log(`server built in ${Date.now() - started} ms`);
  return { built: true };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensureServerBuilt();
}
