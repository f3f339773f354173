import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { checkFieldValue } from '../records/custom-values.ts';
import { searchTextSql } from '../records/search-text.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { assertFieldOptions as checkOptions, normalizeField } from './create-folder.ts';
import { ensureFieldIndexes } from './field-indexes.ts';
import { loadFolder } from './load-folder.ts';
import type { addFieldInput, changeFieldInput, removeFieldInput, updateFolderInput } from './schemas.ts';
import { type FolderRow, serializeFolder } from './serialize.ts';

const MAX_FIELDS = 200;

export async function renameFolder(db: Database, actor: Actor, input: z.infer<typeof updateFolderInput>) {
  return db.transaction(async (tx) => {
    await loadFolder(tx, actor, input.id, 'update');
    return serializeFolder(await saveFields(tx, actor, input.id, undefined, input.name));
  });
}

export async function addFolderField(db: Database, actor: Actor, input: z.infer<typeof addFieldInput>) {
  const { id, ...definition } = input;
  checkOptions(definition);
  // The field's index is made first, outside the transaction (field-indexes.ts); a 404 before it.
  await loadFolder(db, actor, id);
  await ensureFieldIndexes(db, [definition]);
  return db.transaction(async (tx) => {
    const folder = await loadFolder(tx, actor, id, 'update');
    if (folder.fields.some((f) => f.key === definition.key)) {
      throw invalid('key', `the folder already has a field ${definition.key}`);
    }
    if (folder.fields.length >= MAX_FIELDS)
      throw invalid('key', `a folder holds at most ${MAX_FIELDS} fields`);
    const fields = [...folder.fields, normalizeField(definition)];
    const saved = await saveFields(tx, actor, id, fields);
    // Values stored under this key earlier (before a remove) are gone, so only TEXT changes search.
    if (definition.type === 'TEXT') await refreshSearchText(tx, actor, saved);
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
    const folder = await loadFolder(tx, actor, input.id, 'update');
    const current = folder.fields.find((f) => f.key === input.key);
    if (!current) throw new DomainError('NOT_FOUND', `Field ${input.key} not found in folder ${input.id}`);
    const type = input.type ?? current.type;
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
    return serializeFolder(saved);
  });
}

/** Removes a field and its values from every record of the folder. */
export async function removeFolderField(db: Database, actor: Actor, input: z.infer<typeof removeFieldInput>) {
  return db.transaction(async (tx) => {
    const folder = await loadFolder(tx, actor, input.id, 'update');
    const current = folder.fields.find((f) => f.key === input.key);
    if (!current) throw new DomainError('NOT_FOUND', `Field ${input.key} not found in folder ${input.id}`);
    const saved = await saveFields(
      tx,
      actor,
      folder.id,
      folder.fields.filter((f) => f.key !== input.key),
    );
    const r = schema.records;
    await tx
      .update(r)
      .set({ data: sql`${r.data} - ${input.key}::text`, updatedAt: sql`now()` })
      .where(
        and(
          eq(r.workspaceId, actor.workspaceId),
          eq(r.folderId, folder.id),
          sql`${r.data} ? ${input.key}::text`,
        ),
      );
    if (current.type === 'TEXT') await refreshSearchText(tx, actor, saved);
    return serializeFolder(saved);
  });
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

async function saveFields(tx: Executor, actor: Actor, id: string, fields?: FieldDefinition[], name?: string) {
  const [row] = await tx
    .update(schema.folders)
    .set({ ...(fields ? { fields } : {}), ...(name ? { name } : {}), updatedAt: sql`now()` })
    .where(and(eq(schema.folders.workspaceId, actor.workspaceId), eq(schema.folders.id, id)))
    .returning();
  return row!;
}

async function refreshSearchText(tx: Executor, actor: Actor, folder: FolderRow) {
  const r = schema.records;
  await tx
    .update(r)
    .set({ searchText: searchTextSql(folder.fields) })
    .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.folderId, folder.id)));
}
