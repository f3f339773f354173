import { startTestServer } from '@crm/db/testing';
import type { TestProject } from 'vitest/node';

/** Starts the test database server once for the whole run; see packages/db/src/testing. */
export default async function setup(project: TestProject) {
  const server = await startTestServer();
  project.provide('crmTestServerUrl', server.serverUrl);
  project.provide('crmTestTemplate', server.templateName);
  return async () => {
    await server.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    crmTestServerUrl: string;
    crmTestTemplate: string;
  }
}
