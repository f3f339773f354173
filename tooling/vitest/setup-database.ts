import { resetSharedQueue } from '@crm/db/testing';
import { beforeAll, inject } from 'vitest';

// The projects with a database. Hands the global setup's database server to the helpers in
// @crm/db/testing.
process.env.CRM_TEST_SERVER_URL = inject('crmTestServerUrl');
process.env.CRM_TEST_TEMPLATE = inject('crmTestTemplate');

// Where every file shares one database (the Citus run), each starts with an empty job queue,
// as it would on a clone of its own.
beforeAll(() => resetSharedQueue());
