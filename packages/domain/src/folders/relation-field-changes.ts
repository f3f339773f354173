import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition, RelationDefinition } from '@crm/db/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { recordColumnsOf, recordRowFromDriver } from '../record-model/serialize.ts';
import { toRecordSnapshot } from '../record-model/snapshot.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { appendEvents } from '../shared/events.ts';
import { isId, newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { isRelation } from './relation-fields.ts';
import type { fieldDefinitionInput } from './schemas.ts';
import type { FolderRow } from './serialize.ts';

type FieldInput = z.infer<typeof fieldDefinitionInput>;

/** Most fields of a folder. */
export const MAX_FIELDS = 200;

/**
 * What a field definition may hold beside its type: `options` for SELECT and MULTI_SELECT,
 * `relation` (and `inverse`) for RELATION, nothing of either for the others.
 */
export function assertFieldShape(field: Pick<FieldInput, 'type' | 'relation' | 'inverse'>): void {
  if (field.type === 'RELATION' && !field.relation) {
    throw invalid('relation', 'is required for RELATION fields: { "folderId", "cardinality" }');
  }
  if (field.type !== 'RELATION' && field.relation) throw invalid('relation', 'only RELATION fields have it');
  if (field.type !== 'RELATION' && field.inverse) throw invalid('inverse', 'only RELATION fields have it');
}

/**
 * Folders locked FOR UPDATE in id order (two changes of the same pair of folders wait for each
 * other instead of deadlocking). A folder not found is a 400 naming `path`.
 */
export async function lockFolders(
  tx: Executor,
  actor: Actor,
  ids: { id: string; path: string }[],
): Promise<Map<string, FolderRow>> {
  const wanted = [...new Set(ids.map((i) => i.id).filter((id) => isId('folder', id)))].sort();
  const f = schema.folders;
  const rows =
    wanted.length === 0
      ? []
      : await tx
          .select()
          .from(f)
          .where(and(eq(f.workspaceId, actor.workspaceId), inArray(f.id, wanted)))
          .orderBy(f.id)
          .for('update');
  const found = new Map(rows.map((row) => [row.id, row]));
  for (const { id, path } of ids) {
    if (!found.has(id)) throw invalid(path, `folder ${id} does not exist`);
  }
  return found;
}

/**
 * The definitions a new RELATION field adds: the field on `folder`, and with `inverse` its
 * pair on the target folder (the same folder for a self-relation), sharing one relation id
 * (docs/api.md, "Relations"). Both folders must have been locked; the keys must be free.
 */
export function relationDefinitions(
  folder: FolderRow,
  target: FolderRow,
  input: Pick<FieldInput, 'key' | 'label' | 'relation' | 'inverse'>,
): { field: FieldDefinition; inverse: FieldDefinition | null } {
  const relation = input.relation ?? missing('input.relation');
  const id = newId('relation');
  const labels = relation.labels ? { labels: relation.labels } : {};
  const taken = (f: FolderRow, key: string) => f.fields.some((d) => d.key === key);
  if (input.inverse) {
    const inverseKey = input.inverse.key;
    if (taken(target, inverseKey) || (target.id === folder.id && inverseKey === input.key)) {
      throw invalid('inverse.key', `folder ${target.name} already has a field ${inverseKey}`);
    }
    if (target.id !== folder.id && target.fields.length >= MAX_FIELDS) {
      throw invalid('inverse.key', `a folder holds at most ${MAX_FIELDS} fields`);
    }
  }
  const field: FieldDefinition = {
    key: input.key,
    label: input.label,
    type: 'RELATION',
    relation: {
      folderId: target.id,
      cardinality: relation.cardinality,
      ...labels,
      id,
      side: 'from',
      ...(input.inverse ? { inverseKey: input.inverse.key } : {}),
    },
  };
  const inverse: FieldDefinition | null = input.inverse
    ? {
        key: input.inverse.key,
        label: input.inverse.label,
        type: 'RELATION',
        relation: {
          folderId: folder.id,
          cardinality: input.inverse.cardinality,
          ...labels,
          id,
          side: 'to',
          inverseKey: input.key,
        },
      }
    : null;
  return { field, inverse };
}

/** A RELATION field's paired field, if it has one (same relation id, in its target folder). */
export function pairOf(field: FieldDefinition, folders: Map<string, FolderRow>): FieldDefinition | null {
  if (!isRelation(field) || field.relation.inverseKey === undefined) return null;
  const target = folders.get(field.relation.folderId);
  const pair = target?.fields.find((f) => f.key === field.relation.inverseKey);
  return pair && isRelation(pair) && pair.relation.id === field.relation.id ? pair : null;
}

/** `labels` changed on a RELATION definition (none when null). */
export function withLabels(field: FieldDefinition, labels: string[] | null): FieldDefinition {
  const { labels: _old, ...relation } = field.relation as RelationDefinition;
  return { ...field, relation: labels ? { ...relation, labels } : relation };
}

/**
 * Removes every link of a relation, with one `record.unlinked` event each (named from the
 * `from` side, as every link event is), and the ONE values its fields kept in `data`. Used
 * when a RELATION field is removed with `force=true`; the caller saves the folders.
 */
export async function dropRelationLinks(
  tx: Executor,
  actor: Actor,
  relation: RelationDefinition,
  fields: { from: { folderId: string; key: string }; to: { folderId: string; key: string } | null },
): Promise<number> {
  const ws = actor.workspaceId;
  let dropped = 0;
  for (;;) {
    // In slices, so a relation with many links holds no huge statement or event batch.
    const { rows } = await tx.execute<{ from_id: string; to_id: string; label: string | null }>(sql`
      delete from record_links l
       where l.workspace_id = ${ws} and l.relation_id = ${relation.id}
         and (l.from_id, l.to_id) in (
           select from_id, to_id from record_links
            where workspace_id = ${ws} and relation_id = ${relation.id} limit 500)
      returning l.from_id, l.to_id, l.label`);
    if (rows.length === 0) break;
    dropped += rows.length;
    const { rows: froms } = await tx.execute(sql`
      select ${recordColumnsOf('r')} from records r where r.workspace_id = ${ws} and r.id in ${[...new Set(rows.map((r) => r.from_id))]}`);
    const byId = new Map(froms.map((raw) => [raw.id as string, recordRowFromDriver(raw)]));
    await appendEvents(
      tx,
      actor,
      rows.map((link) => {
        const from = byId.get(link.from_id);
        return {
          type: 'record.unlinked' as const,
          fields: {
            recordId: link.from_id,
            folderId: from?.folderId ?? fields.from.folderId,
            record: from ? toRecordSnapshot(from) : null,
            from: link.from_id,
            field: fields.from.key,
            to: link.to_id,
            label: link.label,
            inverseField: fields.to?.key ?? null,
          },
        };
      }),
    );
  }
  return dropped;
}

/** Whether a relation has any link (Trash included). */
export async function hasLinks(tx: Executor, actor: Actor, relationId: string): Promise<boolean> {
  const { rows } = await tx.execute(sql`
    select 1 from record_links where workspace_id = ${actor.workspaceId} and relation_id = ${relationId} limit 1`);
  return rows.length > 0;
}

/** The 409 of removing a RELATION field that has links without `force=true`. */
export function relationInUse(key: string): DomainError {
  return new DomainError(
    'CONFLICT',
    `Field ${key} still links records; remove the links first, or send force=true to remove the field, its inverse and every link`,
    { details: [{ path: 'force', message: 'is required to remove a RELATION field that has links' }] },
  );
}
