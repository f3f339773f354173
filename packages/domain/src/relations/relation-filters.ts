import { schema } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { conditionSql, type ListField, readBoolean, readList } from '../shared/list-fields.ts';
import { conditionError, type FilterLeaf } from '../shared/list-filter.ts';
import { type RelationField, sideOf } from './relation-fields.ts';

/**
 * Filters across relations (docs/api.md, "Relations"): `filter[<key>]=<id>` (records linked to
 * that record, for ONE and MANY fields alike) and `filter[<key>.<field>]` (a field of the
 * linked record, one hop). Both read the links table, whose indexes serve either direction,
 * and see only links to live records.
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

/** `filter[<key>]`: records linked to a record (`eq`, `ne`, `in`), or to any (`empty`). */
export function linkedToField(ws: string, field: RelationField): ListField {
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

function recordId(leaf: FilterLeaf, value: unknown): string {
  if (typeof value === 'string' && RECORD_ID.test(value)) return value;
  throw conditionError(leaf, 'must be the id of a record (rec_…)');
}

/**
 * `filter[<key>.<field>]`: a condition on a field of the linked record (`target`, built on the
 * `linked` alias). A record matches when a live linked record meets it; a negated condition
 * (`ne`, `not`, `empty=true`) matches when none does, so a record without a link matches it,
 * as a record without a value matches a negated condition on its own fields.
 */
export function hopField(ws: string, field: RelationField, target: ListField): ListField {
  return {
    ...target,
    nullable: true,
    valueOf: () => null,
    condition(leaf, negated) {
      let positiveLeaf = leaf;
      let negate = negated;
      if (leaf.op === 'ne') {
        positiveLeaf = { ...leaf, op: 'eq' };
        negate = !negate;
      } else if (leaf.op === 'empty' && readBoolean(leaf)) {
        positiveLeaf = { ...leaf, value: false };
        negate = !negate;
      }
      const positive = sql`exists (${linksOf(ws, field, conditionSql(target, positiveLeaf, false))})`;
      return negate ? sql`not ${positive}` : positive;
    },
  };
}
