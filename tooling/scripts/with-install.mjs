#!/usr/bin/env node
// Makes `npm start` / `npm test` work on a machine that has only Node: installs the
// workspace with the pinned pnpm when node_modules is missing or older than the
// lockfile, then runs the given command with the workspace's binaries on PATH. SIGTERM,
// SIGINT and SIGHUP sent to this wrapper are passed on to the command, and the wrapper exits
// as the command does, so `npm start` under a process manager stops the whole tree.
import { spawn, spawnSync } from 'node:child_process';
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
const child =
  command === 'pnpm'
    ? spawn('npx', ['-y', pnpmSpec, ...rest], { cwd: root, stdio: 'inherit', env: childEnv() })
    : spawn(command, rest, { cwd: root, stdio: 'inherit', env: childEnv() });
const relayed = ['SIGTERM', 'SIGINT', 'SIGHUP'];
for (const signal of relayed) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  console.error(error.message);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // End the way the command ended, so whoever started npm sees the same signal.
    for (const name of relayed) process.removeAllListeners(name);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
