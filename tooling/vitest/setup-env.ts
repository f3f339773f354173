import { resetSharedQueue } from '@crm/db/testing';
import { beforeAll, inject } from 'vitest';

// Hands the global setup's database server to the helpers in @crm/db/testing.
process.env.CRM_TEST_SERVER_URL = inject('crmTestServerUrl');
process.env.CRM_TEST_TEMPLATE = inject('crmTestTemplate');

// A fixed key for secrets at rest (32 bytes, base64), so tests never write a key file into
// the data folder; child processes (the worker of crash tests) inherit it.
process.env.SECRETS_KEY ??= 'dGVzdC1vbmx5IHNlY3JldHMga2V5IC0gMzIgYnl0ZXM=';

// Service processes started by tests answer /metrics and health on a free port of their own,
// never the fixed default, which parallel test files would fight over.
process.env.OPS_PORT ??= '0';

// Where every file shares one database (the Citus run), each starts with an empty job queue,
// as it would on a clone of its own.
beforeAll(() => resetSharedQueue());
