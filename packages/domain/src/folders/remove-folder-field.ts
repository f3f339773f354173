import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { lockField } from './lock-field.ts';
import { dropRelationLinks, hasLinks, pairOf, relationInUse } from './relation-field-changes.ts';
import { isRelation } from './relation-fields.ts';
import { refreshSearchText, saveFields } from './save-fields.ts';
import type { removeFieldInput } from './schemas.ts';
import { type FolderRow, serializeFolder } from './serialize.ts';

/**
 * Removes a field and its values from every record of the folder. A RELATION field that has
 * links is a 409 unless `force` (docs/api.md, "Relations"): then its inverse and every link
 * go too, each link with its `record.unlinked` event.
 */
export async function removeFolderField(db: Executor, actor: Actor, input: z.infer<typeof removeFieldInput>) {
  return db.transaction(async (tx) => {
    const { folder, current, folders } = await lockField(tx, actor, input.id, input.key);
    await audit(tx, actor, {
      action: 'folder.field_removed',
      target: { type: 'folder', id: folder.id },
      details: { key: current.key, type: current.type, ...(input.force === 'true' ? { force: true } : {}) },
    });
    if (isRelation(current)) {
      return serializeFolder(
        await removeRelationField(tx, actor, folder, current, folders, input.force === 'true'),
      );
    }
    const saved = await saveFields(
      tx,
      actor,
      folder.id,
      folder.fields.filter((f) => f.key !== input.key),
    );
    await removeValues(tx, actor, folder.id, input.key);
    if (current.type === 'TEXT') await refreshSearchText(tx, actor, saved);
    return serializeFolder(saved);
  });
}

async function removeRelationField(
  tx: Executor,
  actor: Actor,
  folder: FolderRow,
  current: FieldDefinition & { relation: NonNullable<FieldDefinition['relation']> },
  folders: Map<string, FolderRow>,
  force: boolean,
): Promise<FolderRow> {
  const relation = current.relation;
  if (await hasLinks(tx, actor, relation.id)) {
    if (!force) throw relationInUse(current.key);
    const pair = pairOf(current, folders);
    const here = { folderId: folder.id, key: current.key };
    const there = pair ? { folderId: relation.folderId, key: pair.key } : null;
    await dropRelationLinks(
      tx,
      actor,
      relation,
      relation.side === 'from'
        ? { from: here, to: there }
        : { from: there ?? missing('the FROM side of a relation whose TO side this is'), to: here },
    );
  }
  const pair = pairOf(current, folders);
  const target = folders.get(relation.folderId);
  if (pair && target && target.id !== folder.id) {
    await saveFields(
      tx,
      actor,
      target.id,
      target.fields.filter((f) => f.key !== pair.key),
    );
    await removeValues(tx, actor, target.id, pair.key);
  }
  const gone = new Set([current.key, ...(pair && target?.id === folder.id ? [pair.key] : [])]);
  const saved = await saveFields(
    tx,
    actor,
    folder.id,
    folder.fields.filter((f) => !gone.has(f.key)),
  );
  for (const key of gone) await removeValues(tx, actor, folder.id, key);
  return saved;
}

/** Removes the values of a key from every record of a folder (Trash included). */
async function removeValues(tx: Executor, actor: Actor, folderId: string, key: string) {
  const r = schema.records;
  await tx
    .update(r)
    .set({ data: sql`${r.data} - ${key}::text`, updatedAt: sql`now()` })
    .where(
      and(eq(r.workspaceId, actor.workspaceId), eq(r.folderId, folderId), sql`${r.data} ? ${key}::text`),
    );
}
