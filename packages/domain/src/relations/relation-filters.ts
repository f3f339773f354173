import { schema } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { hasValueIndex, linkValueSql } from '../folders/field-indexes.ts';
import { type RelationField, sideOf } from '../folders/relation-fields.ts';
import { recordColumnsOf } from '../record-model/serialize.ts';
import { conditionSql, customField, type ListField, readBoolean, readList } from '../shared/list-fields.ts';
import { conditionError, type FilterLeaf } from '../shared/list-filter.ts';

/**
 * Filters across relations (docs/api.md, "Relations"): `filter[<key>]=<id>` (records linked to
 * that record, for ONE and MANY fields alike) and `filter[<key>.<field>]` (a field of the
 * linked record, one hop). Both see only links to live records.
 *
 * A ONE field is read from the id `data` holds (null while the linked record is in Trash),
 * through the key's link index (folders/field-indexes.ts), whose statistics let the planner
 * choose between walking the list's order and checking each row (the linked record is found
 * by its primary key) and starting from the linked records that match: at 1,000,000 records
 * a hop matching a tenth of the companies reads a page in tens of milliseconds, and one
 * matching a single company in one. A MANY field is read from the links table, whose two
 * indexes serve either direction.
 */

/** The linked record in a hop's subquery. */
export const linked = alias(schema.records, 'linked');
const r = schema.records;
const RECORD_ID = /^rec_[0-9a-z]{26}$/;

/** The live links of the outer record through `field`, as the FROM and WHERE of a subquery. */
function linksOf(ws: string, field: RelationField, extra: SQL): SQL {
  const { self, other } = sideOf(field.relation);
  return sql`select 1 from record_links l
      join records ${sql.identifier('linked')}
        on ${linked.workspaceId} = ${ws} and ${linked.id} = l.${sql.raw(other)} and ${linked.trashedAt} is null
     where l.workspace_id = ${ws} and l.relation_id = ${field.relation.id}
       and l.${sql.raw(self)} = ${r.id} and ${extra}`;
}

/** The id a ONE field's value names, as its link index has it, and the predicate of that index. */
function pointerOf(field: RelationField): { pointer: SQL; present: SQL } {
  return {
    pointer: sql.raw(linkValueSql(field.key)),
    present: sql.raw(`records.data ? '${field.key}'`),
  };
}

/** `filter[<key>]`: records linked to a record (`eq`, `ne`, `in`), or to any (`empty`). */
export function linkedToField(ws: string, field: RelationField): ListField {
  if (field.relation.cardinality === 'ONE') return linkedToOne(field);
  return {
    kind: 'relation',
    expr: r.id,
    json: false,
    nullable: true,
    valueOf: () => null,
    condition(leaf, negated) {
      if (leaf.op === 'empty') {
        const anyLink = sql`exists (${linksOf(ws, field, sql`true`)})`;
        return readBoolean(leaf) !== negated ? sql`not ${anyLink}` : anyLink;
      }
      const ids =
        leaf.op === 'in' ? readList(leaf).map((v) => recordId(leaf, v)) : [recordId(leaf, leaf.value)];
      const positive = sql`exists (${linksOf(
        ws,
        field,
        sql`${linked.id} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      )})`;
      return negated !== (leaf.op === 'ne') ? sql`not ${positive}` : positive;
    },
  };
}

function linkedToOne(field: RelationField): ListField {
  const { pointer, present } = pointerOf(field);
  return {
    kind: 'relation',
    expr: r.id,
    json: false,
    nullable: true,
    valueOf: () => null,
    condition(leaf, negated) {
      const linkedToAny = sql`(${present} and ${pointer} is not null)`;
      if (leaf.op === 'empty') {
        return readBoolean(leaf) !== negated ? sql`not coalesce(${linkedToAny}, false)` : linkedToAny;
      }
      const ids =
        leaf.op === 'in' ? readList(leaf).map((v) => recordId(leaf, v)) : [recordId(leaf, leaf.value)];
      const positive = sql`(${present} and ${pointer} in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}))`;
      return negated !== (leaf.op === 'ne') ? sql`not coalesce(${positive}, false)` : positive;
    },
  };
}

function recordId(leaf: FilterLeaf, value: unknown): string {
  if (typeof value === 'string' && RECORD_ID.test(value)) return value;
  throw conditionError(leaf, 'must be the id of a record (rec_…)');
}

/** Linked records a hop's condition may match and still be named one by one in the statement. */
const HOP_TARGETS = 1_000;
/** Records of the linked folder the condition is tried on, at most: beyond, the list checks each row. */
const HOP_PROBE_ROWS = 20_000;

/**
 * `filter[<key>.<field>]`: a condition on a field of the linked record (`target`, built on the
 * `linked` alias). A record matches when a live linked record meets it; a negated condition
 * (`ne`, `not`, `empty=true`) matches when none does, so a record without a link matches it,
 * as a record without a value matches a negated condition on its own fields.
 *
 * Which linked records match decides the plan, and the planner cannot tell (it takes a
 * company's folder and its tier for independent): so the condition is first tried on the
 * linked folder (`prepare`, one statement). A condition on a custom field with an index of its
 * values reads the matches through that index, at most HOP_TARGETS + 1 of them, whatever the
 * folder's size; any other reads at most HOP_PROBE_ROWS records of the folder. When at most
 * HOP_TARGETS match, the list names them (`company in (…)`): the planner then knows from the
 * statistics of the link index how many records name them, and reads them through it when
 * they are few or walks the list's order over the records that have a value (the key's
 * created and updated indexes, folders/field-indexes.ts) when they are many. When more match,
 * or the folder is larger than the probe reads, each record of the list's order is checked in
 * turn.
 */
export function hopField(ws: string, field: RelationField, target: ListField): ListField {
  const one = field.relation.cardinality === 'ONE' ? pointerOf(field) : null;
  const { self, other } = sideOf(field.relation);
  /** What `prepare` found: the matching linked records, or null when more than HOP_TARGETS match. */
  const found = new WeakMap<FilterLeaf, string[] | null>();
  const positiveOf = (leaf: FilterLeaf, negated: boolean) => {
    if (leaf.op === 'ne') return { leaf: { ...leaf, op: 'eq' as const }, negate: !negated };
    if (leaf.op === 'empty' && readBoolean(leaf))
      return { leaf: { ...leaf, value: false }, negate: !negated };
    return { leaf, negate: negated };
  };
  const matchingAny = (condition: SQL) =>
    one
      ? sql`(${one.present} and exists (select 1 from records ${sql.identifier('linked')}
           where ${linked.workspaceId} = ${ws} and ${linked.id} = ${one.pointer}
             and ${linked.trashedAt} is null and ${condition}))`
      : sql`exists (${linksOf(ws, field, condition)})`;
  const linkedToIds = (ids: string[]) => {
    if (ids.length === 0) return sql`false`;
    const list = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    return one
      ? sql`(${one.present} and ${one.pointer} in (${list}))`
      : sql`exists (select 1 from record_links l
           where l.workspace_id = ${ws} and l.relation_id = ${field.relation.id}
             and l.${sql.raw(self)} = ${r.id} and l.${sql.raw(other)} in (${list}))`;
  };
  // The condition with the `data ? '<key>'` of the field's own index, for the probe to read through it.
  const indexed =
    target.definition && hasValueIndex(target.definition.type)
      ? customField(linked.data, target.definition)
      : undefined;
  return {
    ...target,
    nullable: true,
    valueOf: () => null,
    async prepare(db, leaf) {
      const { leaf: positive } = positiveOf(leaf, false);
      if (indexed) {
        const { rows } = await db.execute<{ ids: string[] | null }>(sql`
          select array_agg(id) as ids from (
            select ${linked.id} as id from records ${sql.identifier('linked')}
             where ${linked.workspaceId} = ${ws} and ${linked.folderId} = ${field.relation.folderId}
               and ${linked.trashedAt} is null and ${conditionSql(indexed, positive, false)}
             limit ${HOP_TARGETS + 1}) as matching`);
        const ids = rows[0]?.ids ?? [];
        found.set(leaf, ids.length > HOP_TARGETS ? null : ids);
        return;
      }
      const { rows } = await db.execute<{ scanned: number; ids: string[] | null }>(sql`
        select count(*)::int as scanned,
               (array_agg(${linked.id}) filter (where ${conditionSql(target, positive, false)}))[1:${HOP_TARGETS + 1}] as ids
          from (select ${recordColumnsOf('records')} from records
                 where workspace_id = ${ws} and folder_id = ${field.relation.folderId} and trashed_at is null
                 limit ${HOP_PROBE_ROWS + 1}) as ${sql.identifier('linked')}`);
      const { scanned = 0, ids = [] } = rows[0] ?? {};
      found.set(leaf, scanned > HOP_PROBE_ROWS || (ids ?? []).length > HOP_TARGETS ? null : (ids ?? []));
    },
    condition(leaf, negated) {
      const { leaf: positive, negate } = positiveOf(leaf, negated);
      const ids = found.get(leaf);
      const matching = ids ? linkedToIds(ids) : matchingAny(conditionSql(target, positive, false));
      return negate ? sql`not coalesce(${matching}, false)` : matching;
    },
  };
}
