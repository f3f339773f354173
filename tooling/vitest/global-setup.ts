import { startTestServer, type TestServer } from '@crm/db/testing';
import type { TestProject } from 'vitest/node';

/**
 * Starts the test database server once for the whole run (see packages/db/src/testing), for
 * the projects that use a database (tooling/vitest/projects.ts): Vitest runs a project's
 * global setup only when the run has files of that project, so a run of `unit` files alone
 * starts no PostgreSQL. The projects that do share one server: the first to start asks for
 * it, the last to finish stops it.
 */
const SHARED = Symbol.for('crm.testing.server');
interface Shared {
  server: Promise<TestServer>;
  users: number;
}

export default async function setup(project: TestProject) {
  const scope = globalThis as { [SHARED]?: Shared };
  scope[SHARED] ??= { server: startTestServer(), users: 0 };
  const shared = scope[SHARED];
  shared.users++;
  const server = await shared.server;
  project.provide('crmTestServerUrl', server.serverUrl);
  project.provide('crmTestTemplate', server.templateName);
  return async () => {
    if (--shared.users > 0) return;
    delete scope[SHARED];
    await server.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    crmTestServerUrl: string;
    crmTestTemplate: string;
  }
}
