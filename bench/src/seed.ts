import type { Database } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import {
  type Actor,
  addFolderField,
  createApiKey,
  createWorkspace,
  missing,
  newId,
  rightsOf,
  searchTextOf,
} from '@crm/domain';
import type pg from 'pg';
import { createRandom, generateRecord, updatedAtOf, withListFields } from './data.ts';

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
 * limiter never refuses, while every request still runs its statement. Its default folder
 * (People: company, lifecycle) gets a NUMBER field `score` through `addFolderField`, before
 * any record exists, so the field's index is made as it is for a user who adds the field.
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
  const folderOf = async () => {
    const folder = await pool.query<{ id: string; fields: FolderFields }>(
      'select id, fields from folders where workspace_id = $1 order by created_at limit 1',
      [workspaceId],
    );
    const row = folder.rows[0];
    if (!row) throw new Error('the new workspace has no default folder');
    return row;
  };
  const { id: folderId } = await folderOf();
  await addFolderField(db, ownerOf({ workspaceId, userId }), {
    id: folderId,
    key: 'score',
    label: 'Score',
    type: 'NUMBER',
  });
  const { fields } = await folderOf();
  return { workspaceId, userId, folderId, apiKey: secret, fields };
}

/** The workspace's owner, as the domain's functions take a caller. */
export function ownerOf(fixture: Pick<Fixture, 'workspaceId' | 'userId'>): Actor {
  return {
    workspaceId: fixture.workspaceId,
    userId: fixture.userId,
    userName: 'Bench Owner',
    role: 'OWNER',
    apiKeyId: null,
    scopes: rightsOf('OWNER'),
    folderIds: null,
  };
}

export interface SeedOptions {
  workspaceId: string;
  folderId: string;
  fields: FolderFields;
  /** Rows to add. */
  count: number;
  /** Seeds the generator; a different value per call keeps batches of two calls different. */
  seed: number;
  /**
   * created_at is spread uniformly over [from, to), rising with the order of insertion, as the
   * rows the service writes do (it sets created_at itself), so that the table's pages hold the
   * records in about their order of creation, as a table that grew over those years would;
   * updated_at after it (updatedAtOf: some never changed, a few percent changed in the last
   * day before `to`).
   */
  from: Date;
  to: Date;
  onProgress?: (done: number) => void;
  /**
   * Custom values to add to the record of id `id` (the relations' ONE values, see
   * relations-seed.ts), drawn from a generator of their own so the records stay the same.
   */
  relate?: (id: string) => Record<string, string>;
}

const BATCH = 5_000;
/** Two batches in flight: one being generated while Postgres writes the other. */
const PARALLEL = 2;

const INSERT = `
  insert into records (workspace_id, id, folder_id, title, email, phone, data, search_text, created_at, updated_at)
  select $1, t.id, $2, t.title, t.email, t.phone, t.data, lower(t.search_text), t.created_at, t.updated_at
  from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::text[], $9::timestamptz[],
              $10::timestamptz[])
    as t(id, title, email, phone, data, search_text, created_at, updated_at)`;

/** Records of one folder in the form of their columns (data as JSON text, instants as ISO text). */
export interface RecordColumns {
  id: string[];
  title: string[];
  email: (string | null)[];
  phone: (string | null)[];
  data: string[];
  searchText: string[];
  createdAt: string[];
  updatedAt: string[];
}

/** Inserts records of one folder in one statement (unnest arrays). */
export async function insertRecords(
  client: pg.Pool | pg.PoolClient,
  workspaceId: string,
  folderId: string,
  c: RecordColumns,
): Promise<void> {
  await client.query(INSERT, [
    workspaceId,
    folderId,
    c.id,
    c.title,
    c.email,
    c.phone,
    c.data,
    c.searchText,
    c.createdAt,
    c.updatedAt,
  ]);
}

/**
 * Inserts records in batches of unnest arrays. Ids come from the domain's `newId`, the
 * search text from its `searchTextOf`, so the rows are what the API would have written.
 * `data.lifecycle` is drawn from the folder's lifecycle options and `data.score` set when
 * the folder has those fields (listFieldValues). Returns the ids inserted.
 */
export async function seedRecords(pool: pg.Pool, options: SeedOptions): Promise<string[]> {
  const random = createRandom(options.seed);
  const span = options.to.getTime() - options.from.getTime();
  const to = options.to.getTime();
  const lifecycle = options.fields.find((f) => f.key === 'lifecycle' && f.type === 'SELECT');
  const lifecycleOptions = lifecycle?.options ?? [];
  const hasScore = options.fields.some((f) => f.key === 'score' && f.type === 'NUMBER');
  const ids: string[] = [];
  let done = 0;

  /** Records `start` to `start + size - 1` of the `count`: each one's created_at in its own slice of the span. */
  const buildBatch = (start: number, size: number) => {
    const columns: RecordColumns = {
      id: [],
      title: [],
      email: [],
      phone: [],
      data: [],
      searchText: [],
      createdAt: [],
      updatedAt: [],
    };
    for (let i = 0; i < size; i++) {
      const record = withListFields(generateRecord(random), random, lifecycleOptions, hasScore);
      const id = newId('record');
      if (options.relate) Object.assign(record.data, options.relate(id));
      ids.push(id);
      columns.id.push(id);
      columns.title.push(record.title);
      columns.email.push(record.email);
      columns.phone.push(record.phone);
      columns.data.push(JSON.stringify(record.data));
      columns.searchText.push(searchTextOf(record, options.fields));
      const createdAt = options.from.getTime() + Math.floor(((start + i + random()) / options.count) * span);
      columns.createdAt.push(new Date(createdAt).toISOString());
      columns.updatedAt.push(new Date(updatedAtOf(random, createdAt, to)).toISOString());
    }
    return columns;
  };

  await writeInBatches(pool, options.count, BATCH, async (client, start, size) => {
    await insertRecords(client, options.workspaceId, options.folderId, buildBatch(start, size));
    done += size;
    options.onProgress?.(done);
  });
  return ids;
}

/**
 * Writes `total` rows in batches of `batch`, `PARALLEL` batches at once (one being made while
 * PostgreSQL writes another), each on a connection of its own that commits asynchronously:
 * `write(client, start, size)` writes rows `start` to `start + size - 1`.
 */
export async function writeInBatches(
  pool: pg.Pool,
  total: number,
  batch: number,
  write: (client: pg.PoolClient, start: number, size: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    const client = await pool.connect();
    try {
      await client.query('set synchronous_commit = off');
      for (;;) {
        const size = Math.min(batch, total - next);
        if (size <= 0) return;
        const start = next;
        next += size;
        await write(client, start, size);
      }
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/**
 * ANALYZE of `table`; of records, VACUUM too: it marks the new pages all-visible, as autovacuum
 * would have for records made over three years, so the index-only scans of the `q` search's
 * walk (docs/performance.md, "Search") do not read the table for them.
 */
export async function analyze(pool: pg.Pool, table = 'records'): Promise<void> {
  // The seed commits asynchronously, and VACUUM marks a page all-visible only once its rows'
  // commits are on disk and hinted: after the seed, one VACUUM marked no page (30,000 records:
  // none of 1,527), so the walk read the table for each row. A synchronous commit flushes them
  // all (the seed's connections keep `synchronous_commit = off`, so this one says it itself);
  // then two VACUUMs marked nearly every page (1,435 of 1,527), as autovacuum would have.
  if (table === 'records') {
    await pool.query('begin; set local synchronous_commit = on; select txid_current(); commit');
    await pool.query('vacuum records');
  }
  await pool.query(table === 'records' ? 'vacuum (analyze) records' : `analyze ${table}`);
}

/** The workspace's default pipeline (Sales) and its stage ids in pipeline order. */
export async function defaultPipeline(
  pool: pg.Pool,
  workspaceId: string,
): Promise<{ pipelineId: string; stageIds: string[] }> {
  const pipeline = await pool.query<{ id: string }>(
    'select id from pipelines where workspace_id = $1 order by created_at, id limit 1',
    [workspaceId],
  );
  const pipelineId = pipeline.rows[0]?.id;
  if (!pipelineId) throw new Error('the new workspace has no default pipeline');
  const stages = await pool.query<{ id: string }>(
    'select id from stages where workspace_id = $1 and pipeline_id = $2 order by position',
    [workspaceId, pipelineId],
  );
  if (stages.rows.length < 2) throw new Error('the default pipeline needs at least two stages');
  return { pipelineId, stageIds: stages.rows.map((r) => r.id) };
}

export interface SeededDeals {
  ids: string[];
  /** Index into the pipeline's stages of each deal's current stage. */
  stageIndex: number[];
}

/** Deals, and the link of each to its record (deal_links), as createDeal's linkPrimary writes it. */
const INSERT_DEALS = `
  with deal as (
    insert into deals (workspace_id, id, pipeline_id, stage_id, title, amount, currency, data, record_id, created_at, updated_at)
    select $1, t.id, $2, t.stage_id, t.title, t.amount, 'USD', t.data, t.record_id, t.created_at, t.created_at
    from unnest($3::text[], $4::text[], $5::text[], $6::numeric[], $7::jsonb[], $8::text[], $9::timestamptz[])
      as t(id, stage_id, title, amount, data, record_id, created_at)
    returning workspace_id, id, record_id, created_at
  )
  insert into deal_links (workspace_id, deal_id, record_id, created_at)
  select workspace_id, id, record_id, created_at from deal where record_id is not null`;

/**
 * Inserts `count` deals into the pipeline with SQL (not through the API): stages spread
 * evenly, amounts with cents, about a third linked to one of `recordIds` (with the deal_links
 * row the service writes beside `record_id`), created_at spread over [from, to).
 */
export async function seedDeals(
  pool: pg.Pool,
  options: {
    workspaceId: string;
    pipelineId: string;
    stageIds: string[];
    recordIds: string[];
    count: number;
    seed: number;
    from: Date;
    to: Date;
  },
): Promise<SeededDeals> {
  const random = createRandom(options.seed);
  const span = options.to.getTime() - options.from.getTime();
  const ids: string[] = [];
  const stageIndex: number[] = [];
  const c = {
    stage: [] as string[],
    title: [] as string[],
    amount: [] as string[],
    data: [] as string[],
    record: [] as (string | null)[],
    createdAt: [] as string[],
  };
  for (let i = 0; i < options.count; i++) {
    const id = newId('deal');
    const stage = i % options.stageIds.length;
    ids.push(id);
    stageIndex.push(stage);
    const record = generateRecord(random);
    const company = typeof record.data.company === 'string' ? record.data.company : record.title;
    c.stage.push(options.stageIds[stage] ?? missing('options.stageIds[stage]'));
    c.title.push(`${company}: ${['Renewal', 'Expansion', 'New business', 'Pilot'][i % 4]} ${i + 1}`);
    c.amount.push((Math.floor(random() * 50_000_000) / 100).toFixed(2));
    c.data.push(JSON.stringify(random() < 0.5 ? { source: 'seed' } : {}));
    c.record.push(
      random() < 0.35
        ? (options.recordIds[Math.floor(random() * options.recordIds.length)] ??
            missing('options.recordIds[Math.floor(random() * options.recordIds.length)]'))
        : null,
    );
    c.createdAt.push(new Date(options.from.getTime() + Math.floor(random() * span)).toISOString());
  }
  await pool.query(INSERT_DEALS, [
    options.workspaceId,
    options.pipelineId,
    ids,
    c.stage,
    c.title,
    c.amount,
    c.data,
    c.record,
    c.createdAt,
  ]);
  return { ids, stageIndex };
}

/**
 * Two deals alike in everything but their ids (first stage, linked to `recordId`, same
 * title, amount and created_at), for the parity check to move one on each server.
 */
export async function seedTwinDeals(
  pool: pg.Pool,
  options: { workspaceId: string; pipelineId: string; stageIds: string[]; recordId: string },
): Promise<[string, string]> {
  const ids: [string, string] = [newId('deal'), newId('deal')];
  await pool.query(INSERT_DEALS, [
    options.workspaceId,
    options.pipelineId,
    ids,
    [options.stageIds[0], options.stageIds[0]],
    ['Parity twin', 'Parity twin'],
    ['4200.00', '4200.00'],
    ['{"source":"parity"}', '{"source":"parity"}'],
    [options.recordId, options.recordId],
    ['2025-01-02T03:04:05.678Z', '2025-01-02T03:04:05.678Z'],
  ]);
  return ids;
}

/** Tasks, and the link of each to its record (task_links), as insertTask's linkPrimary writes it. */
const INSERT_TASKS = `
  with task as (
    insert into tasks (workspace_id, id, title, due_at, assignee_id, record_id, status, priority, type, recurrence,
                       completed_at, created_at, updated_at)
    select $1, t.id, t.title, t.due_at, t.assignee_id, t.record_id, t.status, t.priority, t.type, t.recurrence,
           t.completed_at, t.created_at, t.created_at
    from unnest($2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[],
                $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[])
      as t(id, title, due_at, assignee_id, record_id, status, priority, type, recurrence, completed_at, created_at)
    returning workspace_id, id, record_id, created_at
  )
  insert into task_links (workspace_id, task_id, record_id, created_at)
  select workspace_id, id, record_id, created_at from task where record_id is not null`;

const TASK_VERBS = ['Call', 'Email', 'Follow up with', 'Send proposal to', 'Meet', 'Check in with'];
const PRIORITIES = ['LOW', 'MEDIUM', 'MEDIUM', 'HIGH', 'URGENT'];
const TYPES = ['TODO', 'TODO', 'CALL', 'EMAIL', 'MEETING'];

/**
 * Inserts `count` tasks with SQL: about 60 % OPEN and 40 % DONE (with completed_at), due
 * times spread from 90 days ago to 180 days ahead with about 10 % none, a third linked to
 * one of `recordIds` (with its task_links row), some assigned to the owner, a few recurring.
 */
export async function seedTasks(
  pool: pg.Pool,
  options: {
    workspaceId: string;
    userId: string;
    recordIds: string[];
    count: number;
    seed: number;
    from: Date;
    to: Date;
  },
): Promise<void> {
  const random = createRandom(options.seed);
  const span = options.to.getTime() - options.from.getTime();
  const now = Date.now();
  const day = 24 * 3600_000;
  for (let start = 0; start < options.count; start += BATCH) {
    const size = Math.min(BATCH, options.count - start);
    const c = {
      id: [] as string[],
      title: [] as string[],
      dueAt: [] as (string | null)[],
      assignee: [] as (string | null)[],
      record: [] as (string | null)[],
      status: [] as string[],
      priority: [] as string[],
      type: [] as string[],
      recurrence: [] as (string | null)[],
      completedAt: [] as (string | null)[],
      createdAt: [] as string[],
    };
    for (let i = 0; i < size; i++) {
      const person = generateRecord(random);
      const createdAt = options.from.getTime() + Math.floor(random() * span);
      const done = random() < 0.4;
      c.id.push(newId('task'));
      c.title.push(`${TASK_VERBS[Math.floor(random() * TASK_VERBS.length)]} ${person.title}`);
      c.dueAt.push(
        random() < 0.1 ? null : new Date(now - 90 * day + Math.floor(random() * 270 * day)).toISOString(),
      );
      c.assignee.push(random() < 0.4 ? options.userId : null);
      c.record.push(
        random() < 0.35
          ? (options.recordIds[Math.floor(random() * options.recordIds.length)] ??
              missing('options.recordIds[Math.floor(random() * options.recordIds.length)]'))
          : null,
      );
      c.status.push(done ? 'DONE' : 'OPEN');
      c.priority.push(
        PRIORITIES[Math.floor(random() * PRIORITIES.length)] ??
          missing('PRIORITIES[Math.floor(random() * PRIORITIES.length)]'),
      );
      c.type.push(
        TYPES[Math.floor(random() * TYPES.length)] ?? missing('TYPES[Math.floor(random() * TYPES.length)]'),
      );
      c.recurrence.push(random() < 0.05 ? 'WEEKLY' : null);
      c.completedAt.push(
        done ? new Date(createdAt + Math.floor(random() * (now - createdAt))).toISOString() : null,
      );
      c.createdAt.push(new Date(createdAt).toISOString());
    }
    await pool.query(INSERT_TASKS, [
      options.workspaceId,
      c.id,
      c.title,
      c.dueAt,
      c.assignee,
      c.record,
      c.status,
      c.priority,
      c.type,
      c.recurrence,
      c.completedAt,
      c.createdAt,
    ]);
  }
}
