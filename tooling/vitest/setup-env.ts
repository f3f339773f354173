import { inject } from 'vitest';

// Every project. Marks the processes tests start (they inherit the environment), so that
// the end of the run finds any left running (tooling/vitest/global-children.ts).
process.env.CRM_TEST_RUN = inject('crmTestRun');

// A fixed key for secrets at rest (32 bytes, base64), so tests never write a key file into
// the data folder; child processes (the worker of crash tests) inherit it.
process.env.SECRETS_KEY ??= 'dGVzdC1vbmx5IHNlY3JldHMga2V5IC0gMzIgYnl0ZXM=';

// Service processes started by tests answer /metrics and health on a free port of their own,
// never the fixed default, which parallel test files would fight over.
process.env.OPS_PORT ??= '0';
