#!/usr/bin/env node
// Builds the web app when dist/ is missing or older than any of its sources, so `npm start`
// and the browser tests always serve the current app without rebuilding it every time.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = join(root, 'dist');

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** True when dist/ has to be (re)built. */
export function isStale() {
  const built = join(WEB_DIST, 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((p) => join(root, p));
  const inputs = Math.max(...sources.filter(existsSync).map(newest));
  return inputs > statSync(built).mtimeMs;
}

/** Held while one process builds: test files that each need the app start together. */
const LOCK = join(root, 'dist.lock');
/** A lock older than this was left by a build that died: taken over. */
const STALE_LOCK_MS = 10 * 60_000;

async function lock() {
  for (;;) {
    try {
      await mkdir(LOCK);
      return;
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error;
    }
    const since = await stat(LOCK).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (since > STALE_LOCK_MS) await rm(LOCK, { recursive: true, force: true });
    else await new Promise((wake) => setTimeout(wake, 250));
  }
}

export async function ensureBuilt({ log = console.log } = {}) {
  if (!isStale()) return { built: false };
  await lock();
  try {
    // Another process may have built it while this one waited.
    if (!isStale()) return { built: false };
    return await build(log);
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}

async function build(log) {
  const started = Date.now();
  // A child process with NODE_ENV=production: a caller's NODE_ENV (vitest sets `test`) would
  // otherwise put React's development build, twice the size, into dist/.
  await new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolvePromise(undefined) : reject(new Error(`vite build exited with ${code}`)),
    );
  });
  log(`web app built in ${Date.now() - started} ms`);
  return { built: true };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensureBuilt();
}
