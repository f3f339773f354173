import { refuseTestDatabases } from '@crm/db/testing';
import { expect } from 'vitest';

// The `unit` project runs without PostgreSQL (tooling/vitest/projects.ts): a file of it that
// reaches for a database fails at once, and the error says why and what to do.
refuseTestDatabases(() => {
  const file = expect.getState().testPath ?? 'this test file';
  return (
    `${file} runs in the unit project, which has no database. A test file that uses the ` +
    'database imports one of the helpers named in DATABASE_HELPERS of tooling/vitest/projects.ts ' +
    '(openTestDb, createTestDatabase, createAdministeredTestDatabase, startTestApp) and then runs ' +
    'in the domain or http project; reach the database through one of them, or add the helper ' +
    'you use to that list (CONTRIBUTING.md, "Test projects").'
  );
});
