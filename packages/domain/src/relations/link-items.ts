import { type Database, type Executor, runNamedSql } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { linkKeyOf, type RelationField, relationFieldOf } from '../folders/relation-fields.ts';
import {
  type RecordRow,
  recordColumnsOf,
  recordColumnsText,
  recordRowFromDriver,
} from '../record-model/serialize.ts';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { type BatchOutcome, itemError, refusedItem } from '../shared/batch.ts';
import { relationReference } from '../shared/custom-values.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { applyLinkChanges, type LinkChange, type LinkOutcome, type LinkRow } from './apply-link-changes.ts';
import { linkTalliesOf } from './link-tallies.ts';
import { matchReferences, referenceProblem } from './one-values.ts';
import { CallFolders, type Relation, relationOf } from './relation.ts';
import type { batchLinkItem, batchUnlinkItem, LinkOutput } from './schemas.ts';

/**
 * What every link and unlink goes through, one or a batch (docs/api.md, "Relations"): each
 * item's records and field found (prepareItems), made a link change, applied together in
 * order in one transaction (eachLinkItem), and answered alone.
 */

export type LinkItem = z.output<typeof batchLinkItem>;

export type UnlinkItem = z.output<typeof batchUnlinkItem>;

/** The columns of a record's row that `link_read_ends` reads of a link's other end: its id and folder, the rest null. */
const END_COLUMNS = recordColumnsText('records')
  .split(', ')
  .map((column) =>
    /\.(id|folder_id|trashed_at)$/.test(column) ? column : `null as ${column.slice(column.indexOf('.') + 1)}`,
  )
  .join(', ');

/** An item whose records and field were found: ready to become a link change. */
export interface Prepared {
  field: RelationField;
  relation: Relation;
  fromId: string;
  toId: string;
}

export type Item<T> = { ok: true; input: T } | { ok: false; issues: z.core.$ZodIssue[] };

/**
 * One transaction over link items: the items the schema refused answer their problems, the
 * others are found (prepareItems), made link changes (or refused by `change`), applied
 * together in order, and answered by `answer`, each at its index.
 */
export function eachLinkItem<I extends { from: string; field: string; to: LinkItem['to'] }, T>(
  db: Database,
  actor: Actor,
  items: Item<I>[],
  spec: {
    where: 'path' | 'body';
    unlinking?: boolean;
    change: (item: Prepared, input: I) => LinkChange | DomainError;
    answer: (outcome: LinkOutcome, item: Prepared, input: I) => BatchOutcome<T>;
  },
): Promise<BatchOutcome<T>[]> {
  return db.transaction(async (tx) => {
    const valid = items.flatMap((item, index) => (item.ok ? [{ index, input: item.input }] : []));
    const { prepared, rows } = await prepareItems(
      tx,
      actor,
      valid.map((v) => v.input),
      spec.where,
      spec.unlinking,
      db,
    );
    const outcomes: BatchOutcome<T>[] = items.map((item) =>
      item.ok ? (undefined as never) : refusedItem(item),
    );
    const changes: LinkChange[] = [];
    const owners: { index: number; item: Prepared; input: I }[] = [];
    valid.forEach(({ index, input }, n) => {
      const item = prepared[n] ?? missing('prepared[n]');
      const change = item instanceof DomainError ? item : spec.change(item, input);
      if (change instanceof DomainError) {
        outcomes[index] = { ok: false, error: change };
        return;
      }
      changes.push(change);
      owners.push({ index, item: item as Prepared, input });
    });
    const applied = await applyLinkChanges(tx, actor, changes, { rows, tallies: linkTalliesOf(db) });
    applied.forEach((outcome, n) => {
      const { index, item, input } = owners[n] ?? missing('owners[n]');
      outcomes[index] = spec.answer(outcome, item, input);
    });
    return outcomes;
  });
}

export function linkAnswer(outcome: LinkOutcome, item: Prepared, from: string): BatchOutcome<LinkOutput> {
  if (!outcome.ok) return { ok: false, error: itemError(outcome.error) };
  if (!('link' in outcome)) throw new Error('a link change answered as a removal');
  const to = item.fromId === from ? item.toId : item.fromId;
  return { ok: true, created: outcome.created, data: linkOutputOf(item.field, from, to, outcome.link) };
}

export function linkOutputOf(
  field: RelationField,
  from: string,
  to: string,
  link: Pick<LinkRow, 'label' | 'createdAt'>,
): LinkOutput {
  return { from, field: field.key, to, label: link.label, createdAt: link.createdAt };
}

/** A label must be one of the relation's labels; a relation without labels takes none. */
export function checkLabel(relation: Relation, label: string | null | undefined): DomainError | null {
  if (label === undefined || label === null) return null;
  const labels = relation.labels ?? [];
  if (labels.includes(label)) return null;
  return invalid(
    'label',
    labels.length === 0
      ? 'this relation defines no labels; add them to the field first'
      : `must be one of: ${labels.join(', ')}`,
  );
}

export const linkNotFound = (from: string, field: string, to: string) =>
  new DomainError('NOT_FOUND', `Link ${from} → ${field} → ${to} not found`);

/**
 * Finds each item's records and field, in a few statements for the whole list: the `from`
 * records (live, of this workspace: otherwise 404), their folders, the field (a RELATION field
 * of that folder: otherwise 400 naming `field`, or 404 when it came in a path) and the `to`
 * record, which must be a live record of the field's folder (400 naming `to`; for an unlink a
 * link to anything else is simply not there: 404). The `from` records and the `to` records
 * named by id are read in one statement; folders come through `db` when given (CallFolders).
 */
export async function prepareItems(
  tx: Executor,
  actor: Actor,
  items: { from: string; field: string; to: LinkItem['to'] }[],
  where: 'path' | 'body',
  unlinking = false,
  db?: Database,
): Promise<{ prepared: (Prepared | DomainError)[]; rows: Map<string, RecordRow> }> {
  const ws = actor.workspaceId;
  const fromIds = new Set(items.map((i) => i.from).filter((id) => isId('record', id)));
  const toIds = new Set(
    items.flatMap((i) => {
      const ref = relationReference(i.to);
      return ref?.by === 'id' && isId('record', ref.value) ? [ref.value] : [];
    }),
  );
  const fromRows = new Map<string, RecordRow>();
  /** The folder of each live record named by id, `from` or `to`. */
  const liveFolder = new Map<string, string>();
  if (fromIds.size + toIds.size > 0) {
    // The `from` records whole (their events show them), the other ends by id and folder only:
    // they are checked, not shown, so their titles and data need not cross the wire.
    const onlyTo = [...toIds].filter((id) => !fromIds.has(id));
    const rows = await runNamedSql(
      tx,
      'link_read_ends',
      sql`
      select ${recordColumnsOf('records')} from records
       where workspace_id = ${ws} and id = any(${sql.param([...fromIds])}::text[])
      union all
      select ${sql.raw(END_COLUMNS)} from records
       where workspace_id = ${ws} and id = any(${sql.param(onlyTo)}::text[])`,
    );
    for (const raw of rows) {
      // Read by the primary key alone, trashed or not (see loadInWorkspace): a trashed
      // record is not found.
      if (raw.trashed_at !== null) continue;
      const id = raw.id as string;
      const folderId = raw.folder_id as string;
      // Records of folders the caller does not reach are not found for it (docs/api.md, "Scopes").
      if (!reachesFolder(actor, folderId)) continue;
      liveFolder.set(id, folderId);
      if (fromIds.has(id)) fromRows.set(id, recordRowFromDriver(raw));
    }
  }
  const froms = new Map([...fromRows.values()].map((row) => [row.id, row.folderId]));
  const folders = new CallFolders(tx, actor, db);
  const found: (
    | { field: RelationField; relation: Relation; from: string; ref: { by: string; value: string } }
    | DomainError
  )[] = [];
  for (const item of items) {
    const folderId = froms.get(item.from);
    if (!folderId) {
      found.push(notFound('Record', item.from));
      continue;
    }
    try {
      const folder = await folders.get(folderId);
      const field = relationFieldOf(folder, item.field, where === 'body' ? 'field' : undefined);
      const ref = relationReference(item.to);
      if (!ref) {
        found.push(
          unlinking
            ? linkNotFound(item.from, item.field, String(item.to))
            : invalid('to', 'must be the id of a record (rec_…), { "email": "…" } or { "title": "…" }'),
        );
        continue;
      }
      found.push({ field, relation: await relationOf(field, folders), from: item.from, ref });
    } catch (error) {
      found.push(itemError(error));
    }
  }
  // References by email or title are matched in one more statement; those by id were read above.
  const refs = found.flatMap((f) =>
    f instanceof DomainError || f.ref.by === 'id'
      ? []
      : [{ folder: f.field.relation.folderId, by: f.ref.by as 'email' | 'title', v: f.ref.value }],
  );
  const matches = refs.length === 0 ? new Map<number, string[]>() : await matchReferences(tx, ws, refs);
  let n = 0;
  const prepared: (Prepared | DomainError)[] = [];
  for (const [i, f] of found.entries()) {
    if (f instanceof DomainError) {
      prepared.push(f);
      continue;
    }
    const match =
      f.ref.by === 'id'
        ? liveFolder.get(f.ref.value) === f.field.relation.folderId
          ? [f.ref.value]
          : []
        : (matches.get(n++) ?? []);
    if (match.length !== 1) {
      const target = (await folders.get(f.field.relation.folderId)).name;
      const item = items[i] ?? missing('items[i]');
      prepared.push(
        unlinking
          ? linkNotFound(item.from, item.field, String(item.to))
          : invalid('to', referenceProblem(f.ref, target, match.length)),
      );
      continue;
    }
    const { fromId, toId } = linkKeyOf(f.field, f.from, match[0] ?? missing('match[0]'));
    prepared.push({ field: f.field, relation: f.relation, fromId, toId });
  }
  return { prepared, rows: fromRows };
}
