import { createHash } from 'node:crypto';
import type { Database, Executor } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { FIELD_KEY } from '../shared/schemas.ts';

/**
 * Custom fields whose values are short and ordered get a btree index of their own, made when
 * a field of that key first appears in any folder (docs/api.md, "Filters, sorts and counts"):
 *
 *   records (workspace_id, (data -> '<key>'), created_at desc, id desc)
 *     where trashed_at is null and data ? '<key>'
 *
 * One index per key, shared by every workspace and folder that has the key: `workspace_id`
 * leads it like every index, and the predicate keeps out the records without the key, so its
 * size follows the records that hold a value. It serves equality and `in` newest first at any
 * selectivity, ranges, and sorts by the field.
 *
 * Each key with an index also gets statistics on its value (`records_data_<key>_stats`,
 * `CREATE STATISTICS … ON (data -> '<key>')`), which ANALYZE fills: PostgreSQL does not use
 * the statistics of a partial index's expression, and without any it takes a range or an
 * equality on the value to match a fraction of a percent of the rows. It then reads every
 * row in the range through the field's index and sorts them, where walking the newest rows
 * (by `created_at` or `updated_at`) until the page is full reads a few thousand: at
 * 1,000,000 records, `filter[data.lifecycle]=Customer&filter[data.score][gte]=50&…[lt]=70&
 * sort=-updatedAt` took 950 ms that way and 6 ms with the statistics.
 *
 * TEXT, EMAIL and URL values may be too long for a btree entry, and MULTI_SELECT is matched
 * by containment: those are filtered on the rows another index finds.
 *
 * A ONE RELATION field's value is the id of the linked record, and filters across the
 * relation (docs/api.md, "Relations") find the records that name given ones, so its key gets
 *
 *   records (workspace_id, left(data ->> '<key>', 64)) where trashed_at is null and data ? '<key>'
 *
 * (`records_link_<key>_idx`). It is on the first 64 characters: an id has 30, and a TEXT value
 * of the same key in another folder, which the index holds too, may be too long for an entry.
 * Its statistics (`records_link_<key>_stats`, how many records name each linked record) let
 * the planner choose between reading the records that name a few linked ones through the
 * index and walking the list's order: without them it took a company with 100 people for one
 * with 4,500 and walked 500,000 records to fill a page (2.5 s at 1,000,000 records; 3 ms with).
 *
 * A filter that names many linked records (a tenth of the companies) is answered by walking
 * the list's order until the page is full, and the records without a value are never among
 * its rows: so the key also gets the two orders lists walk over the records that hold it,
 *
 *   records (workspace_id, created_at desc, id desc) where trashed_at is null and data ? '<key>'
 *   records (workspace_id, updated_at desc, id desc) where trashed_at is null and data ? '<key>'
 *
 * (`records_link_<key>_created_idx`, `records_link_<key>_updated_idx`). Without them, a
 * workspace whose newest 230,000 people had no company walked all of them to find 50 at Gold
 * companies (`filter[account.data.tier]=Gold&sort=-updatedAt`, 160 ms at 1,000,000 records;
 * 0.6 ms with).
 *
 * A TEXT, EMAIL or URL key gets the order of its short values, and where its long ones are:
 *
 *   records (workspace_id, (data -> '<key>'), id)
 *     where trashed_at is null and data ? '<key>' and coalesce(octet_length(data ->> '<key>'), 0) <= 512
 *   records (workspace_id)
 *     where trashed_at is null and data ? '<key>' and octet_length(data ->> '<key>') > 512
 *
 * (`records_text_<key>_idx`, `records_text_<key>_long_idx`). A list sorted by the key walks
 * the first in its order, as one sorted by a NUMBER walks its index, when the second says that
 * the workspace holds no long value of the key (`sortedText`, records/sorted-text.ts): then the
 * first holds every value of the list. Values over 512 bytes are prose, not what a list is
 * sorted by, and a B-tree entry cannot hold one of 10,000 characters; kept out, a notes field
 * of 1 to 2 KB a record costs its second index a few bytes a record, not a copy of the notes.
 */
const INDEXED_TYPES: ReadonlySet<FieldDefinition['type']> = new Set(['SELECT', 'NUMBER', 'DATE', 'BOOLEAN']);

/** The types whose keys get the order of their short values (`records_text_<key>_idx`). */
const TEXT_TYPES: ReadonlySet<FieldDefinition['type']> = new Set(['TEXT', 'EMAIL', 'URL']);

/** The longest value, in bytes, that the order of a TEXT, EMAIL or URL key holds. */
const SORTED_TEXT_BYTES = 512;

/** True when fields of this type get the order of their short values (unless past MAX_FIELD_INDEXES). */
export function hasTextOrder(type: FieldDefinition['type']): boolean {
  return TEXT_TYPES.has(type);
}

/** True when fields of this type get an index of their values (unless past MAX_FIELD_INDEXES keys). */
export function hasValueIndex(type: FieldDefinition['type']): boolean {
  return INDEXED_TYPES.has(type);
}

/**
 * Most field indexes in the database. Every insert into records checks the predicate of each
 * partial index, and the planner reads every statistics object of records for each statement
 * on it (about 2.5 µs apiece), so keys invented without end (by one workspace or many) must not
 * make record reads and writes of all workspaces slower without end: beyond this many, new
 * keys get no index and no statistics (their filters and sorts still work, on the rows other
 * indexes find).
 */
const MAX_FIELD_INDEXES = 200;

/** The index of a key: `records_data_<key>_idx`, or a shortened key and a hash beyond 63 characters. */
export function fieldIndexName(key: string): string {
  return objectName(key, 'idx');
}

/** The index of a ONE relation key's values: `records_link_<key>_idx`, shortened like the others. */
export function linkIndexName(key: string): string {
  return objectName(key, 'idx', 'link');
}

/**
 * The statistics of a key's value: `records_data_<key>_stats`, shortened like the index name
 * (migration 0008 names those of the keys indexed before it the same way, in SQL).
 */
export function fieldStatisticsName(key: string): string {
  return objectName(key, 'stats');
}

/** The walk of a ONE relation key's records in one list order: `records_link_<key>_created_idx` or `…_updated_idx`. */
export function linkOrderIndexName(key: string, order: 'created' | 'updated'): string {
  return objectName(key, `${order}_idx`, 'link');
}

/** The statistics of a ONE relation key's values, the expression of its link index: `records_link_<key>_stats`. */
export function linkStatisticsName(key: string): string {
  return objectName(key, 'stats', 'link');
}

/** The order of a TEXT, EMAIL or URL key's short values (`records_text_<key>_idx`), or where its long ones are (`…_long_idx`). */
export function textIndexName(key: string, values: 'short' | 'long'): string {
  return objectName(key, values === 'short' ? 'idx' : 'long_idx', 'text');
}

/**
 * The condition of a TEXT, EMAIL or URL key's short or long values, written as its indexes'
 * predicates are (PostgreSQL matches a partial index to the same expression and constant).
 */
export function textLengthSql(key: string, values: 'short' | 'long', data = 'data'): string {
  if (!FIELD_KEY.test(key)) throw new Error(`not a field key: ${key}`);
  // A JSON null (`->>` gives no text) counts as short: the list sorts it among the values.
  return values === 'short'
    ? `coalesce(octet_length(${data} ->> '${key}'), 0) <= ${SORTED_TEXT_BYTES}`
    : `octet_length(${data} ->> '${key}') > ${SORTED_TEXT_BYTES}`;
}

function objectName(key: string, suffix: string, kind: 'data' | 'link' | 'text' = 'data'): string {
  const name = `records_${kind}_${key}_${suffix}`;
  if (name.length <= 63) return name;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return `records_${kind}_${key.slice(0, 32)}_${hash}_${suffix}`;
}

/** The SQL a ONE relation key's values are compared by, in filters and in its index. */
export function linkValueSql(key: string, alias = 'records'): string {
  if (!FIELD_KEY.test(key)) throw new Error(`not a field key: ${key}`);
  return `left(${alias}.data ->> '${key}', 64)`;
}

/**
 * A key's index to make: of its values (`data`), of the ids its ONE relation values name
 * (`link`), or of the records holding a ONE relation value in a list order (`created`,
 * `updated`).
 */
interface WantedIndex {
  key: string;
  kind: 'data' | 'link' | 'created' | 'updated' | 'short' | 'long';
  name: string;
  /** The name of the statistics on the index's expression, for the indexes that have one. */
  statistics?: string;
}

const INDEX_COLUMNS: Record<WantedIndex['kind'], (key: string) => string> = {
  data: (key) => `(workspace_id, (data -> '${key}'), created_at desc, id desc)`,
  link: (key) => `(workspace_id, (${linkValueSql(key).replace('records.', '')}))`,
  created: () => '(workspace_id, created_at desc, id desc)',
  updated: () => '(workspace_id, updated_at desc, id desc)',
  short: (key) => `(workspace_id, (data -> '${key}'), id)`,
  long: () => '(workspace_id)',
};

/** The statement, in the form of the index the migrations create for `lifecycle`, or of a link index. */
function createIndexSql(index: WantedIndex, concurrently: boolean): string {
  const { key, kind } = index;
  if (!FIELD_KEY.test(key)) throw new Error(`not a field key: ${key}`);
  const columns = INDEX_COLUMNS[kind](key);
  const length = kind === 'short' || kind === 'long' ? ` and ${textLengthSql(key, kind)}` : '';
  return (
    `create index ${concurrently ? 'concurrently ' : ''}if not exists "${index.name}" on records ` +
    `using btree ${columns} where trashed_at is null and data ? '${key}'${length}`
  );
}

/** The statistics of a key's value, the same expression as its index's second column. */
function createStatisticsSql(index: WantedIndex & { statistics: string }): string {
  const { key } = index;
  if (!FIELD_KEY.test(key)) throw new Error(`not a field key: ${key}`);
  const expression = index.kind === 'data' ? `data -> '${key}'` : linkValueSql(key).replace('records.', '');
  return `create statistics if not exists "${index.statistics}" on (${expression}) from records`;
}

/**
 * Makes sure the fields' indexes, and the statistics of their values, exist; called before the field is added or changed, so a
 * failure leaves the folder as it was (an index made for a field that is then refused is
 * harmless: it stays empty until a record holds the key).
 *
 * On the pool, a missing index is built CONCURRENTLY on a connection of its own: record writes
 * of every workspace go on meanwhile, and the call returns once the index is valid (a build
 * that failed, leaving an invalid index, is dropped and done again). Inside a transaction (a
 * request under an Idempotency-Key runs in one) that cannot be done, and the index is built
 * in the transaction, which holds writes to records until it commits; an advisory lock on the
 * name makes two such builds of one key wait for each other instead of failing.
 */
export async function ensureFieldIndexes(
  db: Executor,
  fields: (Pick<FieldDefinition, 'key' | 'type'> & { relation?: { cardinality: string } | undefined })[],
): Promise<number> {
  // A key that is not a field key gets no index: the change it came with is refused (400 or
  // 404) right after, by the folder's own checks.
  const valid = fields.filter((f) => FIELD_KEY.test(f.key));
  const dataKeys = [...new Set(valid.filter((f) => INDEXED_TYPES.has(f.type)).map((f) => f.key))];
  const linkKeys = [
    ...new Set(
      valid.filter((f) => f.type === 'RELATION' && f.relation?.cardinality === 'ONE').map((f) => f.key),
    ),
  ];
  const textKeys = [...new Set(valid.filter((f) => TEXT_TYPES.has(f.type)).map((f) => f.key))];
  const wanted: WantedIndex[] = [
    ...dataKeys.map((key) => ({
      key,
      kind: 'data' as const,
      name: fieldIndexName(key),
      statistics: fieldStatisticsName(key),
    })),
    ...linkKeys.flatMap((key) => [
      { key, kind: 'link' as const, name: linkIndexName(key), statistics: linkStatisticsName(key) },
      { key, kind: 'created' as const, name: linkOrderIndexName(key, 'created') },
      { key, kind: 'updated' as const, name: linkOrderIndexName(key, 'updated') },
    ]),
    ...textKeys.flatMap((key) =>
      (['short', 'long'] as const).map((kind) => ({ key, kind, name: textIndexName(key, kind) })),
    ),
  ];
  if (wanted.length === 0) return 0;
  const names = wanted.map((w) => w.name);
  // Never empty, which `in` cannot be: the orders of TEXT keys have no statistics.
  const statisticsNames = ['', ...wanted.flatMap((w) => (w.statistics ? [w.statistics] : []))];
  const existing = await db.execute<{ name: string; valid: boolean }>(
    sql`select c.relname as name, i.indisvalid as valid from pg_index i
        join pg_class c on c.oid = i.indexrelid
        where c.relname in ${names} and c.relnamespace = current_schema()::regnamespace
        union all
        select stxname, true from pg_statistic_ext
        where stxname in ${statisticsNames}
          and stxnamespace = current_schema()::regnamespace`,
  );
  const validNames = new Set(existing.rows.filter((r) => r.valid).map((r) => r.name));
  const invalid = new Set(existing.rows.filter((r) => !r.valid).map((r) => r.name));
  const made = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from pg_indexes
        where tablename = 'records' and schemaname = current_schema()
          and (indexname like 'records\_data\_%' or indexname like 'records\_link\_%'
            or indexname like 'records\_text\_%')`,
  );
  const room = MAX_FIELD_INDEXES - (made.rows[0]?.n ?? 0) + invalid.size;
  const missing = wanted.filter((w) => !validNames.has(w.name)).slice(0, Math.max(0, room));
  // Statistics for every key that has or gets an index: also those indexed by a version that
  // made none, or whose statistics a failure between the two statements left out.
  const unmeasured = wanted.filter(
    (w): w is WantedIndex & { statistics: string } =>
      w.statistics !== undefined &&
      (validNames.has(w.name) || missing.includes(w)) &&
      !validNames.has(w.statistics),
  );
  if (missing.length === 0 && unmeasured.length === 0) return 0;
  const pool = (db as Partial<Database>).$client as pg.Pool | undefined;
  if (!pool) {
    for (const index of missing) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${index.name}))`);
      await db.execute(sql.raw(createIndexSql(index, false)));
    }
    // CREATE STATISTICS takes a lock on records that writes pass and that two such
    // statements wait on each other for, so the second sees the first's and does nothing.
    for (const index of unmeasured) await db.execute(sql.raw(createStatisticsSql(index)));
    return missing.length;
  }
  const client = await pool.connect();
  try {
    for (const index of missing) {
      const { name } = index;
      await oneBuildAtATime(client, name, async () => {
        // Another request may have built it while this one waited.
        const now = await client.query<{ valid: boolean }>(
          `select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
            where c.relname = $1 and c.relnamespace = current_schema()::regnamespace`,
          [name],
        );
        if (now.rows[0]?.valid) return;
        if (now.rows[0]) await client.query(`drop index concurrently if exists "${name}"`);
        await client.query(createIndexSql(index, true));
      });
    }
    for (const index of unmeasured) {
      await oneBuildAtATime(client, index.statistics, () => client.query(createStatisticsSql(index)));
    }
  } finally {
    client.release();
  }
  return missing.length;
}

/**
 * Makes the indexes of every field of every folder that lacks them (`ensureFieldIndexes`):
 * those of fields saved before a version that indexes their type (the order of TEXT, EMAIL and
 * URL keys), and any whose build failed. The worker runs it every ten minutes
 * (`make_field_indexes`); when nothing is missing it costs two reads of the catalog and one of
 * the folders. Returns how many indexes it built.
 */
export async function makeFieldIndexes(db: Database): Promise<number> {
  const result = await db.execute<{ key: string; type: FieldDefinition['type']; cardinality: string | null }>(
    sql`select distinct f ->> 'key' as key, f ->> 'type' as type, f -> 'relation' ->> 'cardinality' as cardinality
          from folders, jsonb_array_elements(folders.fields) as f
         order by 1, 2, 3`,
  );
  return ensureFieldIndexes(
    db,
    result.rows.map((row) => ({
      key: row.key,
      type: row.type,
      ...(row.cardinality ? { relation: { cardinality: row.cardinality } } : {}),
    })),
  );
}

/** Field definitions as a request gives them, with the inverse a RELATION field adds to its target folder. */
export function withInverse(
  fields: (Pick<FieldDefinition, 'key' | 'type'> & {
    relation?: { cardinality: string } | undefined;
    inverse?: { key: string; cardinality: string } | undefined;
  })[],
) {
  return fields.flatMap((f) => [
    f,
    ...(f.inverse
      ? [{ key: f.inverse.key, type: 'RELATION' as const, relation: { cardinality: f.inverse.cardinality } }]
      : []),
  ]);
}

/** How long a build waits for another build of the same index before giving up. */
const BUILD_WAIT_MS = 120_000;

/**
 * Runs `build` holding a session advisory lock on the name (the one the transactional path
 * takes), so two requests adding fields of one key at once do not both build its index (the
 * second would fail on the name the first took). The lock is tried, not waited for: a
 * session waiting inside a statement would hold a snapshot that the other's CREATE INDEX
 * CONCURRENTLY must wait out, and each would wait for the other.
 */
async function oneBuildAtATime(client: pg.PoolClient, name: string, build: () => Promise<unknown>) {
  const started = Date.now();
  for (;;) {
    const tried = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock(hashtext($1)) as locked',
      [name],
    );
    if (tried.rows[0]?.locked) break;
    if (Date.now() - started > BUILD_WAIT_MS) throw new Error(`another build of ${name} took over 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  try {
    await build();
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', [name]);
  }
}
