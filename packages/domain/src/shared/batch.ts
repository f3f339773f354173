import type { Database, Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { isDataRefusal, sqlStateOf } from './data-refusal.ts';
import { DomainError, isRefusal } from './errors.ts';
import { type IdKind, isId } from './ids.ts';

/**
 * Batch writes (docs/api.md, "Batch writes"): up to MAX_BATCH_ITEMS items in one request,
 * each answered as the single call would have answered it. Items are independent: one that
 * fails is answered with its error and the others go on.
 */
const MAX_BATCH_ITEMS = 100;

/** An item as its schema read it, or the problems the schema found in it. */
export type BatchItem<T> = { ok: true; input: T } | { ok: false; issues: z.core.$ZodIssue[] };

/**
 * One batch item: the single call's own schema, except that an item it refuses does not
 * refuse the whole body. The item is kept with its problems (paths relative to the item) and
 * answered alone with the 400 the single call would have given.
 */
function batchItem<T extends z.ZodType>(schema: T) {
  return schema
    .transform((input): BatchItem<z.output<T>> => ({ ok: true, input }))
    .catch((ctx): BatchItem<z.output<T>> => ({ ok: false, issues: ctx.error.issues }));
}

/** The list of a batch body: 1 to MAX_BATCH_ITEMS items of `schema`. */
export function batchList<T extends z.ZodType>(schema: T) {
  return z
    .array(batchItem(schema))
    .min(1, 'must hold at least 1 item')
    .max(MAX_BATCH_ITEMS, `must hold at most ${MAX_BATCH_ITEMS} items`);
}

/**
 * What one item came to: its body and whether it made something new (the HTTP layer answers
 * the single call's status from it: 201 or 200), or its error.
 */
export type BatchOutcome<T> =
  | { ok: true; created: boolean; data: T }
  | { ok: false; error: DomainError | z.ZodError };

/** The answer of an item its schema refused. */
export function refusedItem(item: Extract<BatchItem<unknown>, { ok: false }>): BatchOutcome<never> {
  return { ok: false, error: new z.ZodError(item.issues) };
}

/**
 * The error of a failed item. An item fails alone when the single call would have answered
 * it with a refusal (a DomainError whose code `isRefusal`, a 4xx), or when PostgreSQL refused what the item held (a 400 here,
 * naming the SQLSTATE). Anything else — the database away, a fault of the service — is
 * thrown again and fails the whole batch, whose transaction then writes nothing.
 */
export function itemError(error: unknown): DomainError {
  if (error instanceof DomainError && isRefusal(error.code)) return error;
  if (isDataRefusal(error)) {
    return new DomainError(
      'VALIDATION_FAILED',
      `The database refused this item's values (SQLSTATE ${sqlStateOf(error)})`,
      { cause: error },
    );
  }
  throw error;
}

/** Runs one item's work and turns an item failure (see `itemError`) into its outcome. */
export async function settleItem<T>(
  work: () => Promise<{ created: boolean; data: T }>,
): Promise<BatchOutcome<T>> {
  try {
    const { created, data } = await work();
    return { ok: true, created, data };
  } catch (error) {
    return { ok: false, error: itemError(error) };
  }
}

/**
 * Runs each item through `one`, in order: the single call's service given the batch's
 * transaction, so its own transaction is a savepoint that an item's failure rolls back
 * alone. Items the schema refused are answered with their problems and not run.
 */
export async function eachItem<I, T>(
  tx: Executor,
  items: BatchItem<I>[],
  one: (db: Database, input: I) => Promise<{ created: boolean; data: T }>,
): Promise<BatchOutcome<T>[]> {
  const outcomes: BatchOutcome<T>[] = [];
  for (const item of items) {
    outcomes.push(item.ok ? await settleItem(() => one(asDatabase(tx), item.input)) : refusedItem(item));
  }
  return outcomes;
}

/** Domain services take a database handle; inside a batch's transaction they nest as savepoints. */
export const asDatabase = (tx: Executor) => tx as Database;

/**
 * Locks the workspace's rows of `table` that the items name, in id order, before any item
 * runs. Each item locks its row again (a no-op then), but two batches naming the same rows
 * in different orders now wait for each other instead of deadlocking. Ids of another
 * workspace or of the wrong shape lock nothing (their items answer 404).
 */
export async function lockRowsInOrder(
  tx: Executor,
  table: PgTable,
  kind: IdKind,
  workspaceId: string,
  ids: string[],
): Promise<void> {
  const wellFormed = [...new Set(ids.filter((id) => isId(kind, id)))];
  if (wellFormed.length === 0) return;
  await tx.execute(sql`
    select 1 from ${table}
     where workspace_id = ${workspaceId} and id in ${wellFormed}
     order by id
       for update`);
}

/** The ids the valid items name (for `lockRowsInOrder`). */
export function idsOf<I>(items: BatchItem<I>[], id: (input: I) => string): string[] {
  return items.flatMap((item) => (item.ok ? [id(item.input)] : []));
}

/** The `data` of a deleted item in a batch delete: what `DELETE` answers, `{ id, deleted: true }`. */
export const deletedItemOutput = z.object({ id: z.string(), deleted: z.literal(true) });

/**
 * A batch over ids (trash, delete): one transaction, the named rows locked up front in one
 * order (two batches over the same rows wait for each other instead of deadlocking), then
 * each id done by `one` as its single call does it, in a savepoint of its own.
 */
export function eachIdLocked<T>(
  db: Database,
  workspaceId: string,
  target: { table: PgTable; kind: IdKind },
  ids: BatchItem<string>[],
  one: (db: Database, id: string) => Promise<T>,
): Promise<BatchOutcome<T>[]> {
  return db.transaction(async (tx) => {
    await lockRowsInOrder(
      tx,
      target.table,
      target.kind,
      workspaceId,
      idsOf(ids, (id) => id),
    );
    return eachItem(tx, ids, async (itemDb, id) => ({ created: false, data: await one(itemDb, id) }));
  });
}
