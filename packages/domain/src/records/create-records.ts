import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { getTableColumns, is, SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FolderRow } from '../folders/serialize.ts';
import { appendRecordEvents } from '../record-model/record-events.ts';
import { createRecordInput, type RecordOutput } from '../record-model/schemas.ts';
import { type RecordRow, recordColumns, serializeRecord } from '../record-model/serialize.ts';
import { linkWrittenValues, oneValuesIn, resolveOneValues } from '../relations/one-values.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMember } from '../shared/assert-member.ts';
import {
  asDatabase,
  type BatchOutcome,
  batchList,
  itemError,
  refusedItem,
  settleItem,
} from '../shared/batch.ts';
import { validateCustomValues } from '../shared/custom-values.ts';
import { isDataRefusal } from '../shared/data-refusal.ts';
import { missing } from '../shared/missing.ts';
import { searchTextValue } from '../shared/search-text.ts';
import {
  createRecord,
  insertRecord,
  loadRecordFolder,
  lockUpsertEmails,
  newRecordRow,
} from './create-record.ts';

/** An item of `POST /records/batch`: the body of `POST /records` (`upsert` is the batch's). */
const createRecordItemInput = createRecordInput.omit({ upsert: true });

export const createRecordsInput = z.strictObject({
  items: batchList(createRecordItemInput).meta({
    description: 'Up to 100 bodies of `POST /records`, each created (or upserted) as that call would.',
  }),
  upsert: createRecordInput.shape.upsert,
});

type Item = z.output<typeof createRecordItemInput>;
type Outcome = BatchOutcome<RecordOutput>;

/**
 * `POST /records/batch`: each item created as `createRecord` creates it (201), or with
 * `upsert: 'email'` upserted (201 or 200), in one transaction. An item that fails is
 * answered with its error and writes nothing; the others are written.
 */
export async function createRecords(
  db: Database,
  actor: Actor,
  input: z.output<typeof createRecordsInput>,
): Promise<Outcome[]> {
  return db.transaction(async (tx) => {
    // Every index is filled: refused items here, valid ones by the writes below.
    const outcomes: Outcome[] = new Array(input.items.length);
    input.items.forEach((item, index) => {
      if (!item.ok) outcomes[index] = refusedItem(item);
    });
    const valid = input.items.flatMap((item, index) => (item.ok ? [{ index, input: item.input }] : []));
    if (input.upsert === 'email') await upsertByEmail(tx, actor, valid, outcomes);
    else await createTogether(tx, actor, valid, outcomes);
    return outcomes;
  });
}

type NewRecordRow = ReturnType<typeof newRecordRow>;

interface Valid {
  index: number;
  input: Item;
}

/**
 * Upserts by email. The email locks are taken first, all together and in one order; then one
 * statement finds which (folder, email) pairs already have a live record. An item whose email
 * is new to its folder and to the batch is a plain creation (201), written with the others in
 * one statement (`createTogether`). The rest — an email the folder already holds, an email
 * given twice in the batch, an item without an email (refused as the single call refuses it)
 * — run one at a time through `createRecord`, in item order, so an item sees what the items
 * before it wrote: of two items with one new email, the first creates and the second updates.
 * An import of new contacts thus costs what plain creations cost (docs/api.md, "Batch writes").
 */
async function upsertByEmail(tx: Executor, actor: Actor, valid: Valid[], outcomes: Outcome[]) {
  const keyOf = (input: Item) => (input.email ? `${input.folderId}\n${input.email.toLowerCase()}` : null);
  await lockUpsertEmails(
    tx,
    actor,
    valid.flatMap(({ input }) => (input.email ? [{ folderId: input.folderId, email: input.email }] : [])),
  );
  const times = new Map<string, number>();
  for (const { input } of valid) {
    const key = keyOf(input);
    if (key !== null) times.set(key, (times.get(key) ?? 0) + 1);
  }
  const held = await liveEmails(tx, actor, [...times.keys()]);
  const fresh: Valid[] = [];
  const oneByOne: Valid[] = [];
  for (const item of valid) {
    const key = keyOf(item.input);
    if (key !== null && times.get(key) === 1 && !held.has(key)) fresh.push(item);
    else oneByOne.push(item);
  }
  await createTogether(tx, actor, fresh, outcomes);
  for (const { index, input } of oneByOne) {
    outcomes[index] = await settleItem(async () => {
      const { record, created } = await createRecord(asDatabase(tx), actor, { ...input, upsert: 'email' });
      return { created, data: record };
    });
  }
}

/** Of `keys` (folder id, a newline, the lower-cased email), those a live record of the workspace holds. */
async function liveEmails(tx: Executor, actor: Actor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const pairs = keys.map((key) => {
    const cut = key.indexOf('\n');
    return { folderId: key.slice(0, cut), email: key.slice(cut + 1) };
  });
  const found = await tx.execute<{ key: string }>(sql`
    select distinct k."folderId" || chr(10) || k.email as key
      from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as k("folderId" text, email text)
      join records r
        on r.workspace_id = ${actor.workspaceId} and r.folder_id = k."folderId"
       and lower(r.email) = k.email and r.trashed_at is null and r.email is not null`);
  return new Set(found.rows.map((row) => row.key));
}

/**
 * Plain creations are checked the way `createRecord` checks them (folder, owner, custom
 * values; each folder and owner looked up once, every relation value in one statement), then
 * every valid one is inserted in one statement, their `record.created` events written in one
 * more, and the links of their ONE relation values in a few more. When PostgreSQL refuses
 * that insert for what one item holds, or a link one item needs is refused, the items are
 * inserted one by one instead, each in its own savepoint, so only that item fails.
 */
async function createTogether(tx: Executor, actor: Actor, valid: Valid[], outcomes: Outcome[]) {
  const folders = new Map<string, Promise<FolderRow>>();
  const owners = new Map<string, Promise<void>>();
  const checked: { index: number; folder: FolderRow; input: Item; values: Record<string, unknown> }[] = [];
  for (const { index, input } of valid) {
    try {
      const folder = await onceFor(folders, input.folderId, () =>
        loadRecordFolder(tx, actor, input.folderId),
      );
      const ownerId = input.ownerId;
      if (typeof ownerId === 'string') {
        await onceFor(owners, ownerId, () => assertMember(tx, actor.workspaceId, ownerId, 'ownerId'));
      }
      const values = validateCustomValues(folder.fields, input.data ?? {});
      checked.push({ index, folder, input, values });
    } catch (error) {
      outcomes[index] = { ok: false, error: itemError(error) };
    }
  }
  // ONE relation values name their records by id, email or title: all resolved in one statement.
  const unresolved = await resolveOneValues(
    tx,
    actor,
    checked.map(({ folder, values }) => ({ folder, data: values })),
  );
  const rows: { index: number; folder: FolderRow; values: NewRecordRow }[] = [];
  checked.forEach(({ index, folder, input, values }, n) => {
    const problem = unresolved[n];
    if (problem) outcomes[index] = { ok: false, error: problem };
    else rows.push({ index, folder, values: newRecordRow(actor, folder, input, values) });
  });
  if (rows.length === 0) return;
  let inserted: RecordRow[];
  try {
    inserted = await tx.transaction(async (sp) => {
      const written = await insertMany(
        sp,
        rows.map((r) => r.values),
      );
      const byId = new Map(written.map((row) => [row.id, row]));
      const inOrder = rows.map((r) => byId.get(r.values.id) ?? missing('byId.get(r.values.id)'));
      await appendRecordEvents(sp, actor, 'record.created', inOrder);
      const refused = await linkWrittenValues(
        sp,
        actor,
        inOrder.map((row, n) => ({
          recordId: row.id,
          folder: (rows[n] ?? missing('rows[n]')).folder,
          values: oneValuesIn((rows[n] ?? missing('rows[n]')).folder, row.data),
        })),
      );
      if (refused) throw new ItemRefused(refused);
      return inOrder;
    });
  } catch (error) {
    if (!isDataRefusal(error) && !(error instanceof ItemRefused)) throw error;
    for (const { index, folder, values } of rows) {
      outcomes[index] = await settleItem(async () => {
        const row = await tx.transaction((sp) => insertRecord(sp, actor, folder, values));
        return { created: true, data: serializeRecord(row) };
      });
    }
    return;
  }
  rows.forEach(({ index }, i) => {
    outcomes[index] = {
      ok: true,
      created: true,
      data: serializeRecord(inserted[i] ?? missing('inserted[i]')),
    };
  });
}

/**
 * An item of a batch insert refused what its links needed (a field at its limit): the items
 * are then written one by one, so that only that item fails.
 */
class ItemRefused extends Error {
  constructor(readonly refusal: Error) {
    super(refusal.message);
  }
}

/**
 * One INSERT of many new records, their values sent as a single JSON parameter: a multi-row
 * VALUES list would make the ORM build a dozen parameters a row, most of a batch's CPU.
 * Columns the rows leave out take their defaults, as they do in a plain insert.
 */
async function insertMany(tx: Executor, rows: NewRecordRow[]): Promise<RecordRow[]> {
  // A generated column (`search_lower`) is computed by PostgreSQL and takes no value.
  const columns = Object.entries(getTableColumns(schema.records)).filter(([, column]) => !column.generated);
  const given = columns.filter(([key]) => Object.hasOwn(rows[0] ?? missing('rows[0]'), key));
  const selected = columns.map(([key, column]) => {
    if (key === 'searchText') return searchTextValue(sql`r.${sql.identifier(key)}`);
    if (Object.hasOwn(rows[0] ?? missing('rows[0]'), key)) return sql`r.${sql.identifier(key)}`;
    if (is(column.default, SQL)) return column.default;
    return column.default === undefined ? sql`null` : sql.param(column.default, column);
  });
  const shape = given.map(([key, column]) => sql`${sql.identifier(key)} ${sql.raw(column.getSQLType())}`);
  // Bytes (`search_signature`) go into the JSON as PostgreSQL's hex input of bytea.
  const json = JSON.stringify(rows, function (this: Record<string, unknown>, key, value) {
    const raw = this[key];
    return Buffer.isBuffer(raw) ? `\\x${raw.toString('hex')}` : value;
  });
  return tx
    .insert(schema.records)
    .select(
      sql`select ${sql.join(selected, sql`, `)}
            from jsonb_to_recordset(${json}::jsonb) as r(${sql.join(shape, sql`, `)})`,
    )
    .returning(recordColumns);
}

/** The promise `load` gives for `key`, made once per batch (its failure, too, is shared). */
function onceFor<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let promise = cache.get(key);
  if (!promise) {
    promise = load();
    cache.set(key, promise);
  }
  return promise;
}
