import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{apps,packages}/*/src/**/*.test.ts', 'tooling/lint/*.test.ts'],
    globalSetup: ['./tooling/vitest/global-setup.ts'],
    setupFiles: ['./tooling/vitest/setup-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { LOG_LEVEL: 'silent' },
  },
});
