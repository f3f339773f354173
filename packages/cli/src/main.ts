import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { safeErrorMessage } from '@crm/domain';
import { z } from 'zod';
import {
  bootstrap,
  keysCreate,
  keysList,
  keysRevoke,
  secretsReencrypt,
  usersSetPassword,
  workspacesSetRateLimit,
} from './commands.ts';
import { configCommand } from './config.ts';
import { openDatabase } from './database.ts';
import { cliEnv } from './env.ts';
import { exportFile, importFile } from './jobs.ts';
import { USAGE } from './usage.ts';

/** The version changesets gives the packages (one version for all of them). */
function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return String(manifest.version);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      workspace: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      user: { type: 'string' },
      scopes: { type: 'string' },
      folders: { type: 'string' },
      'expires-at': { type: 'string' },
      'rate-limit': { type: 'string' },
      id: { type: 'string' },
      password: { type: 'string' },
      folder: { type: 'string' },
      file: { type: 'string' },
      map: { type: 'string' },
      format: { type: 'string' },
      'upsert-by': { type: 'string' },
      'dry-run': { type: 'boolean' },
      quiet: { type: 'boolean' },
      out: { type: 'string' },
      q: { type: 'string' },
      sort: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      prune: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const [command, sub, ...rest] = positionals;
  if (values.version) {
    console.log(cliVersion());
    return 0;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!command) {
    console.error(USAGE);
    return 1;
  }
  const options = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, value === undefined ? undefined : String(value)]),
  ) as Record<string, string | undefined>;
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  if (command === 'config') {
    // Through a running service's REST API: no database here.
    const outcome = await configCommand(sub, options, cliEnv);
    console.log(JSON.stringify(outcome.output, null, 2));
    return outcome.status;
  }
  const database = await openDatabase();
  try {
    let result: unknown;
    if (command === 'bootstrap') result = await bootstrap(database.db, options);
    else if (command === 'users' && sub === 'set-password')
      result = await usersSetPassword(database.db, options);
    else if (command === 'migrate') result = { migrated: true };
    else if (command === 'keys' && sub === 'create') result = await keysCreate(database.db, options);
    else if (command === 'keys' && sub === 'list') result = await keysList(database.db, options);
    else if (command === 'keys' && sub === 'revoke') result = await keysRevoke(database.db, options, rest);
    else if (command === 'workspaces' && sub === 'set-rate-limit')
      result = await workspacesSetRateLimit(database.db, options, rest);
    else if (command === 'secrets' && sub === 'reencrypt') result = await secretsReencrypt(database.db);
    else if (command === 'import') {
      const job = await importFile(database.db, options, progress);
      console.log(JSON.stringify(job, null, 2));
      // Refused rows (or a job that did not succeed) are the caller's to see: not a clean exit.
      return job.status !== 'SUCCEEDED' ? 1 : job.progress.refused > 0 ? 2 : 0;
    } else if (command === 'export') {
      const job = await exportFile(database.db, options, progress);
      console.log(JSON.stringify(job, null, 2));
      return job.status === 'SUCCEEDED' ? 0 : 1;
    } else {
      console.error(`Unknown command: ${[command, sub].filter(Boolean).join(' ')}\n\n${USAGE}`);
      return 1;
    }
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } finally {
    await database.close();
  }
}

// `pnpm cli -- bootstrap --email …` (the README's form) hands the `--` on to the script, where
// it would end the options and leave every one of them unread; npm drops it.
const argv = process.argv.slice(2);
main(argv[0] === '--' ? argv.slice(1) : argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof z.ZodError) {
      console.error(
        `Invalid options: ${error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    } else if (error instanceof Error) {
      // A failed statement's message lists its parameters (a password hash, a secret): cut.
      console.error(safeErrorMessage(error.message));
    } else {
      console.error(String(error));
    }
    process.exit(1);
  },
);
