import { readFileSync } from 'node:fs';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import * as schema from './index.ts';

const drizzleFolder = new URL('../../drizzle/', import.meta.url);

function lastSnapshot() {
  const journal = JSON.parse(readFileSync(new URL('meta/_journal.json', drizzleFolder), 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  const last = journal.entries.at(-1);
  if (!last) throw new Error('drizzle/meta/_journal.json lists no migration');
  const file = new URL(`meta/${String(last.idx).padStart(4, '0')}_snapshot.json`, drizzleFolder);
  return { tag: last.tag, snapshot: JSON.parse(readFileSync(file, 'utf8')) };
}

describe('the schema and the committed migrations', () => {
  // What `pnpm --filter @crm/db generate` would write: nothing, unless a change to
  // src/schema/ lacks its migration (CONTRIBUTING.md, "Add a field to a resource").
  it('agree: generating a migration from the schema writes no statement', async () => {
    const { tag, snapshot } = lastSnapshot();
    const current = generateDrizzleJson(schema, snapshot.id, undefined, 'snake_case');
    expect(await generateMigration(snapshot, current), `statements missing after ${tag}`).toEqual([]);
  });
});
