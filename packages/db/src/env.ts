/**
 * The db package's environment, read here only (CONTRIBUTING.md, "Habits"): INIT_CWD, the
 * folder a `pnpm`/`npm run` command was started from, against which a relative DATA_DIR is
 * resolved (`resolveDataDir`). Everything else (DATABASE_URL, the pool's settings) is handed
 * over by the server's or the CLI's own configuration.
 */
export const dbEnv: NodeJS.ProcessEnv = process.env;
