import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { eq, sql } from 'drizzle-orm';
import { isRelation, sideOf } from '../folders/relation-fields.ts';
import type { RecordRow } from '../record-model/serialize.ts';
import type { Actor } from '../shared/actor.ts';

/**
 * Links of a record in Trash are hidden, not removed (docs/api.md, "Relations"): every read
 * joins the live records, and a ONE value that names a record in Trash reads as null until
 * the restore. ONE values live in `data`, so the values that name the record are set to null
 * when it goes to Trash and to its id again when it returns, from the links, which stay.
 * Neither is a change of those records: no `updated_at`, no event.
 */

/** A ONE field, in any folder of the workspace, whose values name records of `folderId`. */
interface PointingField {
  key: string;
  relationId: string;
  /** Where the field's own records and the records they name sit in record_links. */
  self: 'from_id' | 'to_id';
  other: 'from_id' | 'to_id';
}

async function onePointingAt(
  tx: Executor,
  actor: Pick<Actor, 'workspaceId'>,
  folderId: string,
): Promise<PointingField[]> {
  const folders = await tx
    .select({ fields: schema.folders.fields })
    .from(schema.folders)
    .where(eq(schema.folders.workspaceId, actor.workspaceId));
  return folders.flatMap((f) =>
    f.fields
      .filter(isRelation)
      .filter((d) => d.relation.folderId === folderId && d.relation.cardinality === 'ONE')
      .map((d) => ({ key: d.key, relationId: d.relation.id, ...sideOf(d.relation) })),
  );
}

/** After `record` went to Trash: the ONE values naming it read null. */
export async function hideLinksOf(tx: Executor, actor: Actor, record: RecordRow): Promise<void> {
  for (const field of await onePointingAt(tx, actor, record.folderId)) {
    await tx.execute(sql`
      update records r set data = r.data || jsonb_build_object(${field.key}::text, null)
        from record_links l
       where l.workspace_id = ${actor.workspaceId} and l.relation_id = ${field.relationId}
         and l.${sql.raw(field.other)} = ${record.id}
         and r.workspace_id = ${actor.workspaceId} and r.id = l.${sql.raw(field.self)}
         and r.data ->> ${field.key}::text = ${record.id}`);
  }
}

/**
 * Before records of one folder are purged: the ONE values naming them (null while they were
 * in Trash) are taken out of `data`, as if never set, since their links go with them.
 */
export async function forgetLinksOf(
  tx: Executor,
  workspaceId: string,
  folderId: string,
  ids: string[],
): Promise<void> {
  for (const field of await onePointingAt(tx, { workspaceId }, folderId)) {
    await tx.execute(sql`
      update records r set data = r.data - ${field.key}::text
        from record_links l
       where l.workspace_id = ${workspaceId} and l.relation_id = ${field.relationId}
         and l.${sql.raw(field.other)} in ${ids}
         and r.workspace_id = ${workspaceId} and r.id = l.${sql.raw(field.self)}
         and r.data -> ${field.key}::text = 'null'::jsonb`);
  }
}

/**
 * The links of records of `folderId` that are being purged, removed in their transaction: the
 * rows they sit in through every relation that has the folder on one side (a RELATION field of
 * the folder, or of any folder, pointing at it), each side read by its index (the primary key
 * for `from_id`, record_links_to_idx for `to_id`). record_links has no foreign key to cascade
 * this (docs/decisions/0006-no-foreign-keys-on-the-write-path.md).
 */
export async function deleteLinksOf(
  tx: Executor,
  workspaceId: string,
  folderId: string,
  ids: string[],
): Promise<void> {
  const folders = await tx
    .select({ id: schema.folders.id, fields: schema.folders.fields })
    .from(schema.folders)
    .where(eq(schema.folders.workspaceId, workspaceId));
  const sides = new Map<string, { relationId: string; column: 'from_id' | 'to_id' }>();
  const add = (relationId: string, column: 'from_id' | 'to_id') =>
    sides.set(`${relationId} ${column}`, { relationId, column });
  for (const folder of folders) {
    for (const field of folder.fields.filter(isRelation)) {
      const { self, other } = sideOf(field.relation);
      if (folder.id === folderId) add(field.relation.id, self);
      if (field.relation.folderId === folderId) add(field.relation.id, other);
    }
  }
  for (const { relationId, column } of sides.values()) {
    await tx.execute(sql`
      delete from record_links
       where workspace_id = ${workspaceId} and relation_id = ${relationId}
         and ${sql.raw(column)} = any(${sql.param(ids)}::text[])`);
  }
}

/**
 * After `record` came back from Trash: the ONE values naming it are put back, and its own ONE
 * values are made again from its links (one may name a record that went to Trash meanwhile,
 * or come back). Returns the record as it now is.
 */
export async function showLinksOf(tx: Executor, actor: Actor, record: RecordRow): Promise<RecordRow> {
  const ws = actor.workspaceId;
  for (const field of await onePointingAt(tx, actor, record.folderId)) {
    await tx.execute(sql`
      update records r set data = r.data || jsonb_build_object(${field.key}::text, ${record.id}::text)
        from record_links l
       where l.workspace_id = ${ws} and l.relation_id = ${field.relationId}
         and l.${sql.raw(field.other)} = ${record.id}
         and r.workspace_id = ${ws} and r.id = l.${sql.raw(field.self)}
         and (r.data -> ${field.key}::text) is distinct from to_jsonb(${record.id}::text)`);
  }
  const [folder] = await tx
    .select({ fields: schema.folders.fields })
    .from(schema.folders)
    .where(sql`${schema.folders.workspaceId} = ${ws} and ${schema.folders.id} = ${record.folderId}`);
  const ones = (folder?.fields ?? []).filter(isRelation).filter((d) => d.relation.cardinality === 'ONE');
  if (ones.length === 0) return record;
  const data = { ...record.data };
  for (const field of ones) {
    const { self, other } = sideOf(field.relation);
    const { rows } = await tx.execute<{ id: string; live: boolean }>(sql`
      select l.${sql.raw(other)} as id, x.trashed_at is null as live from record_links l
        join records x on x.workspace_id = l.workspace_id and x.id = l.${sql.raw(other)}
       where l.workspace_id = ${ws} and l.relation_id = ${field.relation.id} and l.${sql.raw(self)} = ${record.id}
       limit 1`);
    const linked = rows[0];
    if (!linked) delete data[field.key];
    else data[field.key] = linked.live ? linked.id : null;
  }
  if (JSON.stringify(data) === JSON.stringify(record.data)) return record;
  await tx.execute(sql`
    update records set data = ${JSON.stringify(data)}::jsonb where workspace_id = ${ws} and id = ${record.id}`);
  return { ...record, data };
}
