import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePool, createPool } from '@crm/db';
import { createTestDatabase, NoTestDatabaseError } from '@crm/db/testing';
import { describe, expect, it } from 'vitest';
import { classify, importsOf, PROJECTS, projectOf, testFiles } from './projects.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('importsOf', () => {
  it('reads the names of every import, over several lines, without types', () => {
    const { names, modules } = importsOf(`
import { a, b as c } from './one.ts';
import {
  d,
  type E,
  f,
} from '@crm/db/testing';
import type { G } from './types.ts';
import h from 'h';
const x = "import { z } from 'nowhere'";
`);
    expect([...names].sort()).toEqual(['a', 'b', 'd', 'f']);
    expect([...modules].sort()).toEqual(['./one.ts', '@crm/db/testing', 'h']);
  });
});

describe('projectOf', () => {
  const helper = (name: string, from = '../testing/some-helper.ts') => `import { ${name} } from '${from}';\n`;

  it('puts a file that imports a database helper in domain (packages) or http (apps)', () => {
    expect(projectOf('packages/domain/src/x/a.test.ts', helper('openTestDb'))).toBe('domain');
    expect(projectOf('packages/cli/src/a.test.ts', helper('createTestDatabase'))).toBe('domain');
    expect(projectOf('apps/server/src/rest/a.test.ts', helper('startTestApp'))).toBe('http');
    expect(projectOf('apps/server/src/a.test.ts', helper('createAdministeredTestDatabase'))).toBe('http');
  });

  it('puts a file that starts processes of its own beside the database tests', () => {
    const spawns = "import { execFile } from 'node:child_process';\n";
    expect(projectOf('apps/server/src/a.test.ts', spawns)).toBe('http');
    expect(projectOf('packages/cli/src/a.test.ts', spawns)).toBe('domain');
    expect(
      projectOf('apps/server/src/a.test.ts', "import type { ChildProcess } from 'node:child_process';\n"),
    ).toBe('unit');
  });

  it('leaves a file that imports only what needs no database in unit', () => {
    expect(projectOf('packages/domain/src/x/a.test.ts', helper('expectDomainErrorSync'))).toBe('unit');
    expect(projectOf('packages/domain/src/x/a.test.ts', helper('TestDb', '../testing/fixtures.ts'))).toBe(
      'unit',
    );
    // Named in a comment or a string, not imported: not used.
    expect(projectOf('packages/api/src/a.test.ts', '// openTestDb is not needed here\n')).toBe('unit');
    expect(projectOf('apps/server/src/web-app/a.test.ts', helper('parseCsv'))).toBe('unit');
  });

  it('puts a browser test in browser, and process and fault tests in faults', () => {
    expect(
      projectOf('apps/server/src/web-app/a.test.ts', helper('launchBrowser') + helper('startTestApp')),
    ).toBe('browser');
    expect(
      projectOf('apps/server/src/web-app/a.test.ts', helper('signedInBrowser') + helper('startTestApp')),
    ).toBe('browser');
    expect(projectOf('apps/server/src/faults/a.test.ts', '')).toBe('faults');
    expect(
      projectOf('apps/server/src/rest/a.test.ts', helper('startServerProcess') + helper('startTestApp')),
    ).toBe('faults');
    expect(projectOf('apps/server/src/a.test.ts', helper('startThrowawayPostgres'))).toBe('faults');
  });
});

describe('the repository', () => {
  const projects = classify(root);

  it('has every test file in exactly one project', () => {
    const all = testFiles(root);
    const placed = PROJECTS.flatMap((name) => projects[name]);
    expect(placed.sort()).toEqual(all);
    expect(new Set(placed).size).toBe(placed.length);
  });

  it('runs the fast files without a database and the others with one', () => {
    expect(projects.unit).toEqual(
      expect.arrayContaining([
        'packages/api/src/rest-routes.test.ts',
        'packages/api/src/scopes.test.ts',
        'packages/api/src/openapi/document.test.ts',
        'apps/server/src/web-app/records-import.test.ts',
      ]),
    );
    expect(projects.domain).toContain('packages/domain/src/tasks/update-task.test.ts');
    expect(projects.http).toContain('apps/server/src/openapi.test.ts');
    expect(projects.browser).toContain('apps/server/src/web-app/web-app.test.ts');
    expect(projects.faults).toEqual(
      expect.arrayContaining([
        'apps/server/src/faults/fleets.test.ts',
        'apps/server/src/webhooks/worker-crash.test.ts',
      ]),
    );
  });
});

describe('the unit project', () => {
  it('refuses a test database, naming the file and what to do', async () => {
    const error = await createTestDatabase().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NoTestDatabaseError);
    expect(String(error)).toContain('tooling/vitest/projects.test.ts runs in the unit project');
    expect(String(error)).toContain('DATABASE_HELPERS');
  });

  it('refuses any PostgreSQL connection, through a pool as through a client', async () => {
    const pool = createPool({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres', max: 1 });
    try {
      await expect(pool.query('select 1')).rejects.toBeInstanceOf(NoTestDatabaseError);
    } finally {
      await closePool(pool);
    }
  });
});
