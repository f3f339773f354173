#!/usr/bin/env node
// Makes `npm start` / `npm test` work on a machine that has only Node: installs the
// workspace with the pinned pnpm when node_modules is missing or older than the
// lockfile, then runs the given command with the workspace's binaries on PATH.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmSpec = pkg.packageManager; // e.g. pnpm@10.34.8
const marker = join(root, 'node_modules', '.modules.yaml');
const lockfile = join(root, 'pnpm-lock.yaml');

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: childEnv() });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function childEnv() {
  const bin = join(root, 'node_modules', '.bin');
  return { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
}

const stale =
  !existsSync(marker) || (existsSync(lockfile) && statSync(lockfile).mtimeMs > statSync(marker).mtimeMs);
if (stale) {
  const args = ['-y', pnpmSpec, 'install'];
  if (existsSync(lockfile)) args.push('--frozen-lockfile');
  const status = run('npx', args);
  if (status !== 0) process.exit(status);
}

const [command, ...rest] = process.argv.slice(2);
if (!command) process.exit(0);
// `pnpm` itself is not on a bare machine's PATH: run the pinned one through npx.
const status = command === 'pnpm' ? run('npx', ['-y', pnpmSpec, ...rest]) : run(command, rest);
process.exit(status);
