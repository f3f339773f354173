import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { classify, type ProjectName, packageOf, TOOLING_TESTS } from './tooling/vitest/projects.ts';

/**
 * One configuration, five projects (CONTRIBUTING.md, "Test projects"); which file goes where
 * is decided by what it imports (tooling/vitest/projects.ts). `pnpm test` runs them all;
 * `pnpm test:unit` (or `pnpm test --project unit`) one of them.
 *
 * Run from a package's folder (its `test` script is `vitest run --root ../..`), the projects
 * hold that package's files only.
 */
const root = dirname(fileURLToPath(import.meta.url));
const only = packageOf(root, process.cwd());
const files = classify(root, only);

const vitest = (name: string) => `./tooling/vitest/${name}`;
const withDatabase = {
  globalSetup: [vitest('global-children.ts'), vitest('global-setup.ts')],
  setupFiles: [vitest('setup-env.ts'), vitest('setup-database.ts')],
};
const startsProcesses = [...withDatabase.setupFiles, vitest('setup-processes.ts')];

const project = (
  name: ProjectName,
  test: TestProjectInlineConfiguration['test'] & {},
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include: files[name], ...test },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { LOG_LEVEL: 'silent' },
    projects: [
      // No database: no PostgreSQL is started for it, and its setup refuses any connection.
      project('unit', {
        include: only ? files.unit : [...files.unit, TOOLING_TESTS],
        globalSetup: [vitest('global-children.ts')],
        isolate: false,
        setupFiles: [vitest('setup-env.ts'), vitest('setup-unit.ts')],
      }),
      project('domain', withDatabase),
      project('http', { ...withDatabase, setupFiles: startsProcesses }),
      project('browser', { ...withDatabase, setupFiles: startsProcesses }),
      // The fault tests start, kill and restart processes and database servers, and measure
      // how the service copes: they run after the others, one file at a time, so that what
      // loads the machine is their own work, which their time limits count (testing/budget.ts).
      project('faults', {
        ...withDatabase,
        setupFiles: startsProcesses,
        sequence: { groupOrder: 1 },
        fileParallelism: false,
      }),
    ],
  },
});
