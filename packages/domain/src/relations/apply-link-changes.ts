import { type Executor, runNamedSql } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import { recordUpdatedFields } from '../record-model/record-events.ts';
import { type RecordRow, recordColumnsOf, recordRowFromDriver } from '../record-model/serialize.ts';
import { toRecordSnapshot } from '../record-model/snapshot.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { appendEvents, type HistoryEntry, type NewEvent } from '../shared/events.ts';
import { missing as absent } from '../shared/missing.ts';
import { type LinkTallies, TALLY_MARGIN } from './link-tallies.ts';
import type { Relation, RelationSide } from './relation.ts';

/** Most links one record may have through one field (docs/api.md, "Relations"). */
export const MAX_LINKS_PER_FIELD = 10_000;

/**
 * A change of links, in the form of their rows (record_links): `relation` gives both sides.
 * - `link` adds the link, or changes the label of the one that is there (`label` undefined
 *   keeps it); on a ONE side it replaces the side's previous link;
 * - `unlink` removes it (404 when it is not there);
 * - `clear` removes every link of one record on one side (a ONE value set to null).
 */
export type LinkChange =
  | { op: 'link'; relation: Relation; fromId: string; toId: string; label?: string | null }
  | { op: 'unlink'; relation: Relation; fromId: string; toId: string }
  | { op: 'clear'; relation: Relation; side: 'from' | 'to'; recordId: string };

export interface LinkRow {
  relationId: string;
  fromId: string;
  toId: string;
  label: string | null;
  createdAt: string;
}

/** What one change came to: a link made (201) or found (200), a link removed, or an error of its own. */
export type LinkOutcome =
  | { ok: true; created: boolean; link: LinkRow }
  | { ok: true; created: false; removed: LinkRow[] }
  | { ok: false; error: DomainError };

export interface ApplyOptions {
  /** Records the caller read in this transaction (the `from` records of link requests), for the events. */
  rows?: ReadonlyMap<string, RecordRow>;
  /**
   * `<recordId> <key>` of the ONE values the caller wrote into `data` itself (a create or a
   * PATCH), with their `record.updated` event: those are left as they are.
   */
  dataWritten?: ReadonlySet<string>;
  /**
   * The process's tallies of the MANY sides' links (link-tallies.ts): a side whose tally is
   * fresh and far from the limit is not counted again. Without, every side is counted.
   */
  tallies?: LinkTallies;
}

interface Held extends LinkRow {
  /** In the database before this call. */
  stored: boolean;
}

const keyOf = (relationId: string, fromId: string, toId: string) => `${relationId} ${fromId} ${toId}`;

/**
 * Applies link changes in order, in the caller's transaction, and everything they imply
 * (docs/api.md, "Relations"): a link on a ONE side replaces that side's previous link, ONE
 * values in `data` follow the links (with `record.updated`), a field holds at most
 * MAX_LINKS_PER_FIELD links (409), and every link made or removed has one `record.linked` or
 * `record.unlinked` event, named from the relation's `from` side. A change that fails answers
 * its own error and writes nothing; the others go on.
 *
 * The records whose ONE values change are locked FOR UPDATE, in id order and in one
 * statement, and the records a new ONE value names FOR SHARE (so they stay out of Trash until
 * the transaction ends); links are read after the locks, so what a ONE side holds cannot
 * change meanwhile. The ends of `link` changes must have been checked by the caller (live
 * records of the relation's folders); an end that went to Trash since is that change's 400.
 */
export async function applyLinkChanges(
  tx: Executor,
  actor: Actor,
  changes: LinkChange[],
  options: ApplyOptions = {},
): Promise<LinkOutcome[]> {
  const ws = actor.workspaceId;
  const relations = new Map(changes.map((c) => [c.relation.id, c.relation]));
  const dataWritten = options.dataWritten ?? new Set<string>();

  // 1. Locks. The records that own a ONE side named by a change; for one-to-one relations
  //    also the partners a new link takes away from them, found by a first read.
  const owners = new Set<string>();
  for (const c of changes) {
    if (c.op === 'clear') {
      owners.add(c.recordId);
      continue;
    }
    if (c.relation.from.cardinality === 'ONE') owners.add(c.fromId);
    if (c.relation.to.cardinality === 'ONE') owners.add(c.toId);
  }
  if (changes.some((c) => c.relation.from.cardinality === 'ONE' && c.relation.to.cardinality === 'ONE')) {
    for (const held of await readLinks(tx, ws, changes)) {
      const relation = relations.get(held.relationId) ?? absent('relations.get(held.relationId)');
      if (relation.from.cardinality === 'ONE') owners.add(held.fromId);
      if (relation.to.cardinality === 'ONE') owners.add(held.toId);
    }
  }
  const rows = new Map<string, RecordRow>();
  for (const row of await lockRecords(tx, ws, [...owners], 'update')) rows.set(row.id, row);
  // The ends of new links: a record whose id goes into the ONE value of another is locked FOR
  // SHARE, so that it cannot go to Trash before that value is written (the Trash would not
  // see the value to hide), and checked again once locked. The others were checked by the
  // caller in this transaction and are not read again (a MANY link made while its record goes
  // to Trash is a hidden link, as if made just before); the `from` records the events show
  // are read at the end, unless the caller gave them (`options.rows`).
  const shared = new Set<string>();
  for (const c of changes) {
    if (c.op !== 'link') continue;
    if (c.relation.from.cardinality === 'ONE') shared.add(c.toId);
    if (c.relation.to.cardinality === 'ONE') shared.add(c.fromId);
  }
  const locked = new Set(owners);
  for (const row of await lockRecords(
    tx,
    ws,
    [...shared].filter((id) => !rows.has(id)),
    'share',
  )) {
    rows.set(row.id, row);
    locked.add(row.id);
  }
  for (const id of shared) locked.add(id);
  for (const [id, row] of options.rows ?? []) if (!rows.has(id)) rows.set(id, row);

  // 2. What is there: the links the changes name, every link of the ONE sides they touch,
  //    and how many links the MANY sides hold.
  const links = new Map<string, Held>();
  const { held: stored, counts } = await readLinksAndCounts(tx, ws, changes, options.tallies);
  for (const held of stored) {
    links.set(keyOf(held.relationId, held.fromId, held.toId), { ...held, stored: true });
  }

  // 3. The changes in order, on that picture.
  const outcomes: LinkOutcome[] = [];
  const removed: LinkRow[] = [];
  const added = new Set<string>();
  const relabelled = new Set<string>();
  const events: LinkEvent[] = [];
  // Each ONE side a link was made or removed on: its value in `data` follows.
  const touched = new Map<string, OneSide>();
  const touch = (relation: Relation, link: LinkRow) => {
    for (const side of ['from', 'to'] as const) {
      if (relation[side].key === null || relation[side].cardinality !== 'ONE') continue;
      const recordId = side === 'from' ? link.fromId : link.toId;
      touched.set(`${recordId} ${relation.id} ${side}`, { recordId, relation, side });
    }
  };
  const live = (link: Held) => links.get(keyOf(link.relationId, link.fromId, link.toId)) === link;
  const onSide = (relationId: string, side: 'from' | 'to', id: string) =>
    [...links.values()].filter(
      (l) => l.relationId === relationId && (side === 'from' ? l.fromId === id : l.toId === id),
    );
  const take = (link: Held) => {
    links.delete(keyOf(link.relationId, link.fromId, link.toId));
    const counted = [
      countKey(link.relationId, 'from', link.fromId),
      countKey(link.relationId, 'to', link.toId),
    ];
    for (const k of counted) if (counts.has(k)) counts.set(k, (counts.get(k) ?? absent('counts.get(k)')) - 1);
    if (link.stored) removed.push(link);
    added.delete(keyOf(link.relationId, link.fromId, link.toId));
    touch(relations.get(link.relationId) ?? absent('relations.get(link.relationId)'), link);
    events.push({ type: 'record.unlinked', link, label: link.label });
  };

  for (const change of changes) {
    const relation = change.relation;
    if (change.op === 'clear') {
      const gone = onSide(relation.id, change.side, change.recordId);
      for (const link of gone) take(link);
      outcomes.push({ ok: true, created: false, removed: gone });
      continue;
    }
    const key = keyOf(relation.id, change.fromId, change.toId);
    const current = links.get(key);
    if (change.op === 'unlink') {
      if (!current) {
        outcomes.push({ ok: false, error: new DomainError('NOT_FOUND', 'Link not found') });
        continue;
      }
      take(current);
      outcomes.push({ ok: true, created: false, removed: [current] });
      continue;
    }
    // A locked end must be live (a locked one not found was purged); the others were checked.
    const dead = [change.fromId, change.toId].find((id) => {
      const row = rows.get(id);
      return locked.has(id) && (!row || row.trashedAt !== null);
    });
    if (dead !== undefined) {
      outcomes.push({ ok: false, error: trashedEnd(dead) });
      continue;
    }
    if (current) {
      if (change.label !== undefined && change.label !== current.label) {
        const previousLabel = current.label;
        current.label = change.label;
        // A link made by this call is written with its last label, and announced once.
        if (current.stored) {
          relabelled.add(key);
          events.push({ type: 'record.linked', link: current, label: current.label, previousLabel });
        }
      }
      outcomes.push({ ok: true, created: false, link: { ...current } });
      continue;
    }
    const full = fullSide(relation, change, counts);
    if (full) {
      outcomes.push({ ok: false, error: full });
      continue;
    }
    if (relation.from.cardinality === 'ONE')
      for (const l of onSide(relation.id, 'from', change.fromId)) take(l);
    if (relation.to.cardinality === 'ONE') for (const l of onSide(relation.id, 'to', change.toId)) take(l);
    const link: Held = {
      relationId: relation.id,
      fromId: change.fromId,
      toId: change.toId,
      label: change.label ?? null,
      createdAt: new Date().toISOString(),
      stored: false,
    };
    links.set(key, link);
    added.add(key);
    for (const k of [
      countKey(relation.id, 'from', change.fromId),
      countKey(relation.id, 'to', change.toId),
    ]) {
      if (counts.has(k)) counts.set(k, (counts.get(k) ?? absent('counts.get(k)')) + 1);
      options.tallies?.added(tallyKey(ws, k), 1);
    }
    touch(relation, link);
    events.push({ type: 'record.linked', link, label: null });
    outcomes.push({ ok: true, created: true, link: { ...link } });
  }

  // 4. The writes: removed links, new ones, new labels, then the ONE values in data.
  const newLinks = [...added].map((k) => links.get(k) ?? absent('links.get(k)'));
  await deleteLinks(tx, ws, removed);
  await insertLinks(tx, ws, newLinks);
  await relabel(
    tx,
    ws,
    [...relabelled].map((k) => links.get(k)).filter((l): l is Held => l !== undefined && live(l)),
  );
  const updated = await writeOneValues(tx, actor, [...touched.values()], rows, links, dataWritten);

  // 5. Events: each link made or removed once, named from the `from` side, with the `from`
  //    record as it is now; then the records whose ONE values changed.
  const missing = events.map((e) => e.link.fromId).filter((id) => !rows.has(id));
  for (const row of await readRecords(tx, ws, missing)) rows.set(row.id, row);
  // A link made and removed by the same call was never there: it has no event.
  const eventsToWrite: NewEvent[] = events
    .filter((e) => (e.type === 'record.unlinked' ? e.link.stored : live(e.link)))
    .map((e) => {
      const relation = relations.get(e.link.relationId) ?? absent('relations.get(e.link.relationId)');
      return { type: e.type, fields: linkEventFields(relation, e, rows), history: linkHistory(relation, e) };
    });
  for (const { row, previous } of updated) {
    eventsToWrite.push({
      type: 'record.updated',
      fields: recordUpdatedFields(row, Object.keys(previous), previous),
    });
  }
  await appendEvents(tx, actor, eventsToWrite);
  return outcomes;
}

const countKey = (relationId: string, side: 'from' | 'to', id: string) => `${relationId} ${side} ${id}`;
const tallyKey = (ws: string, countKeyOfSide: string) => `${ws} ${countKeyOfSide}`;

/** A 409 when a new link would take a MANY field of one of its records past the limit. */
function fullSide(
  relation: Relation,
  change: { fromId: string; toId: string },
  counts: Map<string, number>,
): DomainError | null {
  for (const [side, id] of [
    ['from', change.fromId],
    ['to', change.toId],
  ] as const) {
    const field: RelationSide = relation[side];
    if (field.key === null || field.cardinality !== 'MANY') continue;
    const held = counts.get(countKey(relation.id, side, id)) ?? 0;
    if (held >= MAX_LINKS_PER_FIELD) {
      return new DomainError(
        'CONFLICT',
        `Record ${id} already has ${MAX_LINKS_PER_FIELD} links through ${field.key}, the most a field holds`,
        { details: [{ path: 'to', message: `${field.key} of ${id} holds the most links a field may hold` }] },
      );
    }
  }
  return null;
}

function trashedEnd(id: string): DomainError {
  return new DomainError('VALIDATION_FAILED', `Record ${id} is not a live record`, {
    details: [{ path: 'to', message: `record ${id} is not a live record` }],
  });
}

interface LinkEvent {
  type: 'record.linked' | 'record.unlinked';
  link: Held;
  /** The link's label when the event happened: a link made by the call takes its last one. */
  label: string | null;
  previousLabel?: string | null;
}

/** A ONE side of one record in one relation. */
interface OneSide {
  recordId: string;
  relation: Relation;
  side: 'from' | 'to';
}

/**
 * The field history of a link made or removed (docs/api.md, "History and provenance"): an
 * entry for each MANY side, `data.<key>` going from null to the other record's id or back. A
 * ONE side's history is its value in `data`, which its `record.updated` carries. A new label
 * on a link that stays changes no field.
 */
function linkHistory(relation: Relation, event: LinkEvent): HistoryEntry[] {
  if (event.previousLabel !== undefined) return [];
  const linked = event.type === 'record.linked';
  const entries: HistoryEntry[] = [];
  for (const side of ['from', 'to'] as const) {
    const field = relation[side];
    if (field.key === null || field.cardinality !== 'MANY') continue;
    const [self, other] =
      side === 'from' ? [event.link.fromId, event.link.toId] : [event.link.toId, event.link.fromId];
    entries.push({
      subject: 'record',
      subjectId: self,
      field: `data.${field.key}`,
      from: linked ? null : other,
      to: linked ? other : null,
    });
  }
  return entries;
}

function linkEventFields(relation: Relation, event: LinkEvent, rows: Map<string, RecordRow>) {
  const from = rows.get(event.link.fromId);
  return {
    recordId: event.link.fromId,
    folderId: from?.folderId ?? relation.from.folderId,
    record: from ? toRecordSnapshot(from) : null,
    from: event.link.fromId,
    field: relation.from.key,
    to: event.link.toId,
    label: event.type === 'record.linked' && !event.link.stored ? event.link.label : event.label,
    inverseField: relation.to.key,
    ...(event.previousLabel !== undefined ? { previousLabel: event.previousLabel } : {}),
  };
}

/**
 * The ONE values the links now imply, written into `data` of the records whose values
 * changed (but those the caller wrote itself), with `updated_at`. A ONE side holds one link
 * at most, and every link of a side the call touched was read, so the side's value is the
 * other end of its one remaining link (null while that record is in Trash, see trash-links.ts),
 * or none. Returns each record written and its previous values, for `record.updated`.
 */
async function writeOneValues(
  tx: Executor,
  actor: Actor,
  sides: OneSide[],
  rows: Map<string, RecordRow>,
  links: Map<string, Held>,
  dataWritten: ReadonlySet<string>,
): Promise<{ row: RecordRow; previous: Record<string, unknown> }[]> {
  const writes = new Map<string, { id: string; set: Record<string, string | null>; unset: string[] }>();
  const previous = new Map<string, Record<string, unknown>>();
  for (const { recordId, relation, side } of sides) {
    const key = relation[side].key ?? absent('relation[side].key');
    const row = rows.get(recordId);
    if (dataWritten.has(`${recordId} ${key}`) || !row || row.folderId !== relation[side].folderId) continue;
    let other: string | null = null;
    for (const l of links.values()) {
      if (l.relationId === relation.id && (side === 'from' ? l.fromId : l.toId) === recordId) {
        other = side === 'from' ? l.toId : l.fromId;
      }
    }
    // The value `data` shows: the linked record's id, null while it is in Trash, none without a link.
    const otherRow = other === null ? undefined : rows.get(other);
    const shown: string | null | undefined =
      other === null ? undefined : otherRow && otherRow.trashedAt !== null ? null : other;
    const now = Object.hasOwn(row.data, key) ? (row.data[key] as string | null) : undefined;
    if (now === shown) continue;
    const write = writes.get(recordId) ?? { id: recordId, set: {}, unset: [] };
    writes.set(recordId, write);
    if (shown === undefined) write.unset.push(key);
    else write.set[key] = shown;
    const before = previous.get(recordId) ?? {};
    before[`data.${key}`] = now ?? null;
    previous.set(recordId, before);
  }
  if (writes.size === 0) return [];
  const written = await runNamedSql(
    tx,
    'link_write_one_values',
    sql`
    update records r
       set data = (r.data - w.unset) || w.set, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify([...writes.values()])}::jsonb) as w(id text, set jsonb, unset text[])
     where r.workspace_id = ${actor.workspaceId} and r.id = w.id
    returning ${recordColumnsOf('r')}`,
  );
  return written.map((raw) => {
    const row = recordRowFromDriver(raw);
    rows.set(row.id, row);
    return { row, previous: previous.get(row.id) ?? absent('previous.get(row.id)') };
  });
}

/** Locks records of the workspace in id order, in one statement, and returns them (Trash included). */
async function lockRecords(
  tx: Executor,
  ws: string,
  ids: string[],
  mode: 'update' | 'share',
): Promise<RecordRow[]> {
  if (ids.length === 0) return [];
  const rows = await runNamedSql(
    tx,
    `link_lock_records_${mode}`,
    sql`
    select ${recordColumnsOf('r')} from records r
     where r.workspace_id = ${ws} and r.id = any(${sql.param([...new Set(ids)])}::text[])
     order by r.id
       for ${sql.raw(mode)}`,
  );
  return rows.map(recordRowFromDriver);
}

async function readRecords(tx: Executor, ws: string, ids: string[]): Promise<RecordRow[]> {
  if (ids.length === 0) return [];
  const rows = await runNamedSql(
    tx,
    'link_read_records',
    sql`
    select ${recordColumnsOf('r')} from records r
     where r.workspace_id = ${ws} and r.id = any(${sql.param([...new Set(ids)])}::text[])`,
  );
  return rows.map(recordRowFromDriver);
}

/**
 * The links the changes may touch: those they name, and every link on each ONE side they
 * name (a side's link is replaced or cleared). Trashed ends included.
 */
function linksSql(ws: string, changes: LinkChange[]): SQL {
  const exact: { r: string; f: string; t: string }[] = [];
  const sides: { r: string; s: 'from' | 'to'; id: string }[] = [];
  for (const c of changes) {
    if (c.op === 'clear') {
      sides.push({ r: c.relation.id, s: c.side, id: c.recordId });
      continue;
    }
    exact.push({ r: c.relation.id, f: c.fromId, t: c.toId });
    if (c.op !== 'link') continue;
    if (c.relation.from.cardinality === 'ONE') sides.push({ r: c.relation.id, s: 'from', id: c.fromId });
    if (c.relation.to.cardinality === 'ONE') sides.push({ r: c.relation.id, s: 'to', id: c.toId });
  }
  return sql`
    select l.relation_id, l.from_id, l.to_id, l.label, l.created_at
      from jsonb_to_recordset(${JSON.stringify(exact)}::jsonb) as k(r text, f text, t text)
      join record_links l on l.workspace_id = ${ws} and l.relation_id = k.r and l.from_id = k.f and l.to_id = k.t
    union
    select l.relation_id, l.from_id, l.to_id, l.label, l.created_at
      from jsonb_to_recordset(${JSON.stringify(sides.filter((s) => s.s === 'from'))}::jsonb) as k(r text, id text)
      join record_links l on l.workspace_id = ${ws} and l.relation_id = k.r and l.from_id = k.id
    union
    select l.relation_id, l.from_id, l.to_id, l.label, l.created_at
      from jsonb_to_recordset(${JSON.stringify(sides.filter((s) => s.s === 'to'))}::jsonb) as k(r text, id text)
      join record_links l on l.workspace_id = ${ws} and l.relation_id = k.r and l.to_id = k.id`;
}

interface LinkDriverRow extends Record<string, unknown> {
  relation_id: string;
  from_id: string;
  to_id: string;
  label: string | null;
  created_at: string;
}

const linkRowOf = (r: LinkDriverRow): LinkRow => ({
  relationId: r.relation_id,
  fromId: r.from_id,
  toId: r.to_id,
  label: r.label,
  createdAt: new Date(r.created_at).toISOString(),
});

/** The links the changes may touch (linksSql), in one statement. */
async function readLinks(tx: Executor, ws: string, changes: LinkChange[]): Promise<LinkRow[]> {
  const rows = await runNamedSql<LinkDriverRow>(tx, 'link_read_links', linksSql(ws, changes));
  return rows.map(linkRowOf);
}

/**
 * How many links each of the `wanted` sides holds now (counting stops past the limit): rows
 * `(r, s, id, n)`.
 */
function countsSql(ws: string, wanted: Map<string, CountedSide>): SQL {
  const of = (side: 'from' | 'to') => JSON.stringify([...wanted.values()].filter((w) => w.s === side));
  const limit = MAX_LINKS_PER_FIELD + 1;
  return sql`
    select k.r, 'from' as s, k.id, (
      select count(*)::int from (
        select 1 from record_links l
         where l.workspace_id = ${ws} and l.relation_id = k.r and l.from_id = k.id limit ${limit}) as held) as n
      from jsonb_to_recordset(${of('from')}::jsonb) as k(r text, id text)
    union all
    select k.r, 'to' as s, k.id, (
      select count(*)::int from (
        select 1 from record_links l
         where l.workspace_id = ${ws} and l.relation_id = k.r and l.to_id = k.id limit ${limit}) as held) as n
      from jsonb_to_recordset(${of('to')}::jsonb) as k(r text, id text)`;
}

/**
 * The links the changes may touch (linksSql) and the counts of the MANY fields they add to
 * (countsSql), in one statement: a row is a link, or a count when `n` is not null.
 */
async function readLinksAndCounts(
  tx: Executor,
  ws: string,
  changes: LinkChange[],
  tallies: LinkTallies | undefined,
): Promise<{ held: LinkRow[]; counts: Map<string, number> }> {
  const counts = new Map<string, number>();
  const wanted = sidesToCount(ws, changes, counts, tallies);
  const rows = await runNamedSql<LinkDriverRow & { s: 'from' | 'to' | null; n: number | null }>(
    tx,
    'link_read_links_and_counts',
    sql`
    select l.relation_id, l.from_id, l.to_id, l.label, l.created_at, null::text as s, null::int as n
      from (${linksSql(ws, changes)}) as l
    union all
    select c.r, null, c.id, null, null, c.s, c.n
      from (${countsSql(ws, wanted)}) as c`,
  );
  const held: LinkRow[] = [];
  for (const row of rows) {
    if (row.n === null) {
      held.push(linkRowOf(row));
      continue;
    }
    const key = countKey(row.relation_id, row.s ?? absent('row.s'), row.to_id);
    counts.set(key, row.n);
    tallies?.counted(tallyKey(ws, key), row.n);
  }
  return { held, counts };
}

interface CountedSide {
  r: string;
  s: 'from' | 'to';
  id: string;
}

/**
 * The MANY sides a new link adds to, keyed by `countKey`, that must be counted: those whose
 * tally (link-tallies.ts) is missing, stale, or too near the limit once this call's links are
 * added. The others' tallies go into `counts` as they are.
 */
function sidesToCount(
  ws: string,
  changes: LinkChange[],
  counts: Map<string, number>,
  tallies: LinkTallies | undefined,
): Map<string, CountedSide> {
  const sides = new Map<string, CountedSide & { adding: number }>();
  for (const c of changes) {
    if (c.op !== 'link') continue;
    for (const [side, id] of [
      ['from', c.fromId],
      ['to', c.toId],
    ] as const) {
      const field = c.relation[side];
      if (field.key === null || field.cardinality !== 'MANY') continue;
      const key = countKey(c.relation.id, side, id);
      const known = sides.get(key);
      if (known) known.adding++;
      else sides.set(key, { r: c.relation.id, s: side, id, adding: 1 });
    }
  }
  const wanted = new Map<string, CountedSide>();
  for (const [key, { adding, ...side }] of sides) {
    const tally = tallies?.known(tallyKey(ws, key));
    if (tally !== undefined && tally + adding + TALLY_MARGIN <= MAX_LINKS_PER_FIELD) counts.set(key, tally);
    else wanted.set(key, side);
  }
  return wanted;
}

async function deleteLinks(tx: Executor, ws: string, links: LinkRow[]): Promise<void> {
  if (links.length === 0) return;
  const keys = links.map((l) => ({ r: l.relationId, f: l.fromId, t: l.toId }));
  await runNamedSql(
    tx,
    'link_delete_links',
    sql`
    delete from record_links l
     using jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(r text, f text, t text)
     where l.workspace_id = ${ws} and l.relation_id = k.r and l.from_id = k.f and l.to_id = k.t`,
  );
}

async function insertLinks(tx: Executor, ws: string, links: Held[]): Promise<void> {
  if (links.length === 0) return;
  const values = links.map((l) => ({
    r: l.relationId,
    f: l.fromId,
    t: l.toId,
    label: l.label,
    at: l.createdAt,
  }));
  await runNamedSql(
    tx,
    'link_insert_links',
    sql`
    insert into record_links (workspace_id, relation_id, from_id, to_id, label, created_at)
    select ${ws}, k.r, k.f, k.t, k.label, k.at
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as k(r text, f text, t text, label text, at timestamptz)`,
  );
}

async function relabel(tx: Executor, ws: string, links: LinkRow[]): Promise<void> {
  if (links.length === 0) return;
  const values = links.map((l) => ({ r: l.relationId, f: l.fromId, t: l.toId, label: l.label }));
  await runNamedSql(
    tx,
    'link_relabel_links',
    sql`
    update record_links l set label = k.label
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as k(r text, f text, t text, label text)
     where l.workspace_id = ${ws} and l.relation_id = k.r and l.from_id = k.f and l.to_id = k.t`,
  );
}
