import type { Database } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { createApiKey, createWorkspace, newId, searchTextOf } from '@crm/domain';
import type pg from 'pg';
import { createRandom, generateRecord } from './data.ts';

/** The bench's workspace, its default folder and an API key with read and write scopes. */
export interface Fixture {
  workspaceId: string;
  userId: string;
  folderId: string;
  apiKey: string;
}

type FolderFields = FieldDefinition[];

/**
 * Creates the workspace through the domain, as the API would. The limit is so high the
 * limiter never refuses, while every request still runs its statement.
 */
export async function createFixture(
  db: Database,
  pool: pg.Pool,
): Promise<Fixture & { fields: FolderFields }> {
  const { workspaceId, userId } = await createWorkspace(db, {
    name: 'Bench Co',
    owner: { email: `bench-${Date.now()}@example.com`, name: 'Bench Owner' },
    rateLimitPerMinute: 1_000_000_000,
  });
  const { secret } = await createApiKey(db, { workspaceId, userId, name: 'bench' });
  const folder = await pool.query<{ id: string; fields: FolderFields }>(
    'select id, fields from folders where workspace_id = $1 order by created_at limit 1',
    [workspaceId],
  );
  const row = folder.rows[0];
  if (!row) throw new Error('the new workspace has no default folder');
  return { workspaceId, userId, folderId: row.id, apiKey: secret, fields: row.fields };
}

export interface SeedOptions {
  workspaceId: string;
  folderId: string;
  fields: FolderFields;
  /** Rows to add. */
  count: number;
  /** Seeds the generator; a different value per call keeps batches of two calls different. */
  seed: number;
  /** created_at is spread uniformly over [from, to). */
  from: Date;
  to: Date;
  onProgress?: (done: number) => void;
}

const BATCH = 5_000;
/** Two batches in flight: one being generated while Postgres writes the other. */
const PARALLEL = 2;

const INSERT = `
  insert into records (workspace_id, id, folder_id, title, email, phone, data, search_text, created_at, updated_at)
  select $1, t.id, $2, t.title, t.email, t.phone, t.data, t.search_text, t.created_at, t.created_at
  from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::text[], $9::timestamptz[])
    as t(id, title, email, phone, data, search_text, created_at)`;

/**
 * Inserts records in batches of unnest arrays. Ids come from the domain's `newId`, the
 * search text from its `searchTextOf`, so the rows are what the API would have written.
 * Returns the ids inserted.
 */
export async function seedRecords(pool: pg.Pool, options: SeedOptions): Promise<string[]> {
  const random = createRandom(options.seed);
  const span = options.to.getTime() - options.from.getTime();
  const ids: string[] = [];
  let next = 0;
  let done = 0;

  const buildBatch = (size: number) => {
    const columns = {
      id: [] as string[],
      title: [] as string[],
      email: [] as (string | null)[],
      phone: [] as (string | null)[],
      data: [] as string[],
      searchText: [] as string[],
      createdAt: [] as string[],
    };
    for (let i = 0; i < size; i++) {
      const record = generateRecord(random);
      const id = newId('record');
      ids.push(id);
      columns.id.push(id);
      columns.title.push(record.title);
      columns.email.push(record.email);
      columns.phone.push(record.phone);
      columns.data.push(JSON.stringify(record.data));
      columns.searchText.push(searchTextOf(record, options.fields));
      columns.createdAt.push(new Date(options.from.getTime() + Math.floor(random() * span)).toISOString());
    }
    return columns;
  };

  const worker = async () => {
    const client = await pool.connect();
    try {
      await client.query('set synchronous_commit = off');
      for (;;) {
        const size = Math.min(BATCH, options.count - next);
        if (size <= 0) return;
        next += size;
        const c = buildBatch(size);
        await client.query(INSERT, [
          options.workspaceId,
          options.folderId,
          c.id,
          c.title,
          c.email,
          c.phone,
          c.data,
          c.searchText,
          c.createdAt,
        ]);
        done += size;
        options.onProgress?.(done);
      }
    } finally {
      client.release();
    }
  };

  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return ids;
}

export async function analyze(pool: pg.Pool): Promise<void> {
  await pool.query('analyze records');
}
