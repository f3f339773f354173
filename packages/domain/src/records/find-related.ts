import { type Database, schema } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import { relationFieldOf, sideOf } from '../folders/relation-fields.ts';
import type { findRelatedInput } from '../record-model/schemas.ts';
import { recordColumns, recordRowFromDriver, serializeRecord } from '../record-model/serialize.ts';
import type { Actor } from '../shared/actor.ts';
import { treeFromParam } from '../shared/list-filter.ts';
import { countModeOf } from '../shared/list-query.ts';
import { liveRecordRow } from './get-record.ts';
import { listRecords } from './list-records.ts';

const r = schema.records;

/**
 * `GET /records/{id}/related/{field}`: the live records linked to a live record through one
 * of its RELATION fields, as the list pages them (filters, sort, cursor, count), each with its
 * `link` (docs/api.md, "Relations").
 */
export async function findRelated(db: Database, actor: Actor, input: z.infer<typeof findRelatedInput>) {
  const { id, field: key, filter, count, ...rest } = input;
  const record = await liveRecordRow(db, actor, id);
  const field = relationFieldOf(await loadFolder(db, actor, record.folderId), key);
  const { self, other } = sideOf(field.relation);
  const ws = actor.workspaceId;
  const link = sql`(select jsonb_build_object('label', l.label, 'createdAt', l.created_at)
      from record_links l
     where l.workspace_id = ${ws} and l.relation_id = ${field.relation.id}
       and l.${sql.raw(self)} = ${id} and l.${sql.raw(other)} = ${r.id})`;
  return listRecords(
    db,
    actor,
    { ...rest, folderId: field.relation.folderId, filter: treeFromParam(filter), count: countModeOf(count) },
    {
      scope: sql`${r.id} in (select l.${sql.raw(other)} from record_links l
         where l.workspace_id = ${ws} and l.relation_id = ${field.relation.id} and l.${sql.raw(self)} = ${id})`,
      print: ['related', field.relation.id, id],
      columns: { ...recordColumns, link: link.as('link') },
      fromDriver: (raw) => ({
        ...recordRowFromDriver(raw),
        link: raw.link as { label: string | null; createdAt: string },
      }),
      serialize: (row) => ({
        ...serializeRecord(row),
        link: { label: row.link.label, createdAt: new Date(row.link.createdAt).toISOString() },
      }),
    },
  );
}
