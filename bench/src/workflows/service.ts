import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@crm/db';
import type { Cleanups } from '../cleanup.ts';
import { type Child, startTsxChild, waitUntilReady } from '../processes.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * The server in a role of its own — `all` (API and worker), `api` or `worker` — on free ports,
 * stopped by `cleanups`; resolves once its /readyz answers (a worker's is on its ops listener,
 * as it serves no API). `env` adds settings. `loader: 'script'` starts it as `npm start` does
 * (`apps/server/scripts/start.mjs`, the server's build, without a TypeScript loader, whose
 * memory a deployment does not have); the default runs its sources (`src/main.ts`) through tsx.
 */
export async function launchService(
  connectionString: string,
  role: 'all' | 'api' | 'worker',
  cleanups: Cleanups,
  env: Record<string, string> = {},
  options: { loader?: 'tsx' | 'script'; readyWithinMs?: number } = {},
): Promise<Child> {
  const port = await freePort();
  const opsPort = role === 'worker' ? await freePort() : 0;
  const child = startTsxChild({
    name: `service (${role})`,
    script: options.loader === 'script' ? 'apps/server/scripts/start.mjs' : 'apps/server/src/main.ts',
    ...(options.loader ? { loader: options.loader } : {}),
    cwd: repoRoot,
    url: `http://127.0.0.1:${role === 'worker' ? opsPort : port}`,
    env: {
      DATABASE_URL: connectionString,
      HOST: '127.0.0.1',
      PORT: String(port),
      ROLE: role,
      OPS_PORT: String(opsPort),
      DATABASE_POOL_SIZE: '20',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  cleanups.push({ what: `stopping ${child.name}`, run: () => child.stop() });
  await waitUntilReady(child, options.readyWithinMs);
  return child;
}
