import { runMigrations } from './migrate.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error(
    'DATABASE_URL is required (or use `pnpm cli migrate`, which also serves the embedded database)',
  );
  process.exit(1);
}
await runMigrations(url);
console.log('migrations applied');
