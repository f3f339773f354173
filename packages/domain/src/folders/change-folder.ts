import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { checkFieldValue } from '../shared/custom-values.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { addField } from './add-field.ts';
import { assertFieldOptions as checkOptions, normalizeField } from './field-definition.ts';
import { ensureFieldIndexes, withInverse } from './field-indexes.ts';
import { loadFolder } from './load-folder.ts';
import {
  assertFieldShape,
  dropRelationLinks,
  hasLinks,
  lockFolders,
  pairOf,
  relationInUse,
  withLabels,
} from './relation-field-changes.ts';
import { isRelation } from './relation-fields.ts';
import { refreshSearchText, saveFields } from './save-fields.ts';
import type { addFieldInput, changeFieldInput, removeFieldInput, updateFolderInput } from './schemas.ts';
import { type FolderRow, serializeFolder } from './serialize.ts';

export async function renameFolder(db: Database, actor: Actor, input: z.infer<typeof updateFolderInput>) {
  return db.transaction(async (tx) => {
    const before = await loadFolder(tx, actor, input.id, 'update');
    const saved = await saveFields(tx, actor, input.id, undefined, input.name);
    if (before.name !== saved.name) {
      await audit(tx, actor, {
        action: 'folder.renamed',
        target: { type: 'folder', id: input.id },
        details: { from: before.name, to: saved.name },
      });
    }
    return serializeFolder(saved);
  });
}

export async function addFolderField(db: Database, actor: Actor, input: z.infer<typeof addFieldInput>) {
  const { id, ...definition } = input;
  checkOptions(definition);
  assertFieldShape(definition);
  // The field's index is made first, outside the transaction (field-indexes.ts); a 404 before it.
  await loadFolder(db, actor, id);
  await ensureFieldIndexes(db, withInverse([definition]));
  return db.transaction(async (tx) => {
    await loadFolder(tx, actor, id);
    const saved = await addField(tx, actor, id, definition);
    await audit(tx, actor, {
      action: 'folder.field_added',
      target: { type: 'folder', id },
      details: { key: definition.key, type: definition.type, label: definition.label },
    });
    return serializeFolder(saved);
  });
}

/**
 * Changes a field's label, type or options. Existing values (Trash included, since it can be
 * restored) must all be valid under the new definition, otherwise nothing changes.
 */
export async function changeFolderField(db: Database, actor: Actor, input: z.infer<typeof changeFieldInput>) {
  if (input.type) {
    await loadFolder(db, actor, input.id);
    await ensureFieldIndexes(db, [{ key: input.key, type: input.type }]);
  }
  return db.transaction(async (tx) => {
    const saved = await changeField(tx, actor, input);
    const { id, key, ...changes } = input;
    await audit(tx, actor, {
      action: 'folder.field_changed',
      target: { type: 'folder', id },
      details: { key, ...changes },
    });
    return serializeFolder(saved);
  });
}

async function changeField(
  tx: Executor,
  actor: Actor,
  input: z.infer<typeof changeFieldInput>,
): Promise<FolderRow> {
  const { folder, current } = await lockField(tx, actor, input.id, input.key);
  const type = input.type ?? current.type;
  if ((type === 'RELATION') !== (current.type === 'RELATION')) {
    throw invalid(
      'type',
      current.type === 'RELATION'
        ? 'a RELATION field keeps its type; remove it and add a field of the new type'
        : 'a field cannot become a RELATION; add a RELATION field instead',
    );
  }
  if (isRelation(current)) return changeRelationField(tx, actor, folder, current, input);
  if (input.relation) throw invalid('relation', 'only RELATION fields have it');
  const hasOptions = type === 'SELECT' || type === 'MULTI_SELECT';
  const next: FieldDefinition = normalizeField({
    key: current.key,
    label: input.label ?? current.label,
    type,
    ...(hasOptions ? { options: input.options ?? current.options } : {}),
  });
  if (!hasOptions && input.options)
    throw invalid('options', 'only SELECT and MULTI_SELECT fields have options');
  checkOptions(next);
  if (next.type !== current.type || JSON.stringify(next.options) !== JSON.stringify(current.options)) {
    await checkStoredValues(tx, actor, folder, next);
  }
  const fields = folder.fields.map((f) => (f.key === next.key ? next : f));
  const saved = await saveFields(tx, actor, folder.id, fields);
  if ((current.type === 'TEXT') !== (next.type === 'TEXT')) await refreshSearchText(tx, actor, saved);
  return saved;
}

/**
 * The folder of a field, locked FOR UPDATE, and the field (404 when there is none). For a
 * RELATION field the target folder is locked too, both in id order, before either is read
 * for good: two changes of one pair of folders then wait for each other rather than deadlock.
 */
async function lockField(tx: Executor, actor: Actor, folderId: string, key: string) {
  const notFound = () => new DomainError('NOT_FOUND', `Field ${key} not found in folder ${folderId}`);
  const peek = (await loadFolder(tx, actor, folderId)).fields.find((f) => f.key === key);
  if (!peek) throw notFound();
  const ids = [{ id: folderId, path: 'id' }];
  if (isRelation(peek)) ids.push({ id: peek.relation.folderId, path: 'relation.folderId' });
  const folders = await lockFolders(tx, actor, ids);
  const folder = folders.get(folderId) ?? missing('folders.get(folderId)');
  const current = folder.fields.find((f) => f.key === key);
  if (!current) throw notFound();
  return { folder, current, folders };
}

/** A RELATION field's label, or the labels of its links, which change on both fields of a pair. */
async function changeRelationField(
  tx: Executor,
  actor: Actor,
  folder: FolderRow,
  current: FieldDefinition,
  input: z.infer<typeof changeFieldInput>,
): Promise<FolderRow> {
  if (input.options) throw invalid('options', 'only SELECT and MULTI_SELECT fields have options');
  const labels = input.relation?.labels;
  let next: FieldDefinition = { ...current, label: input.label ?? current.label };
  if (labels !== undefined) next = withLabels(next, labels);
  const targetId = (current.relation ?? missing('the relation of a RELATION field')).folderId;
  const folders = await lockFolders(tx, actor, [{ id: targetId, path: 'relation.folderId' }]);
  folders.set(folder.id, folder);
  const pair = labels === undefined ? null : pairOf(current, folders);
  const target = folders.get(targetId) ?? missing('the target folder lockFolders locked');
  if (pair && labels !== undefined && target.id === folder.id) {
    const pairNext = withLabels(pair, labels);
    const fields = folder.fields.map((f) => (f.key === next.key ? next : f.key === pair.key ? pairNext : f));
    return saveFields(tx, actor, folder.id, fields);
  }
  if (pair && labels !== undefined) {
    const pairNext = withLabels(pair, labels);
    const fields = target.fields.map((f) => (f.key === pair.key ? pairNext : f));
    await saveFields(tx, actor, target.id, fields);
  }
  return saveFields(
    tx,
    actor,
    folder.id,
    folder.fields.map((f) => (f.key === next.key ? next : f)),
  );
}

/**
 * Removes a field and its values from every record of the folder. A RELATION field that has
 * links is a 409 unless `force` (docs/api.md, "Relations"): then its inverse and every link
 * go too, each link with its `record.unlinked` event.
 */
export async function removeFolderField(db: Database, actor: Actor, input: z.infer<typeof removeFieldInput>) {
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

async function checkStoredValues(tx: Executor, actor: Actor, folder: FolderRow, next: FieldDefinition) {
  const r = schema.records;
  const rows = await tx
    .selectDistinct({ value: sql<unknown>`${r.data} -> ${next.key}::text` })
    .from(r)
    .where(
      and(
        eq(r.workspaceId, actor.workspaceId),
        eq(r.folderId, folder.id),
        sql`${r.data} ? ${next.key}::text`,
      ),
    );
  const bad = rows
    .map((row) => row.value)
    .filter((value) => value !== null && checkFieldValue(next, value) !== null);
  if (bad.length > 0) {
    const sample = bad
      .slice(0, 3)
      .map((v) => JSON.stringify(v))
      .join(', ');
    throw invalid(
      next.key,
      `${bad.length} stored value(s) would not be valid as ${next.type} (for example ${sample}); change or clear them first`,
    );
  }
}
