import { inject } from 'vitest';

// Hands the global setup's database server to the helpers in @crm/db/testing.
process.env.CRM_TEST_SERVER_URL = inject('crmTestServerUrl');
process.env.CRM_TEST_TEMPLATE = inject('crmTestTemplate');
