import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { checkFieldValue } from '../shared/custom-values.ts';
import { invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { assertFieldOptions as checkOptions, normalizeField } from './field-definition.ts';
import { ensureFieldIndexes } from './field-indexes.ts';
import { loadFolder } from './load-folder.ts';
import { lockField } from './lock-field.ts';
import { lockFolders, pairOf, withLabels } from './relation-field-changes.ts';
import { isRelation } from './relation-fields.ts';
import { refreshSearchText, saveFields } from './save-fields.ts';
import type { changeFieldInput } from './schemas.ts';
import { type FolderRow, serializeFolder } from './serialize.ts';

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

/** The change of `changeFolderField` in the caller's transaction (its field index made beforehand). */
export async function changeField(
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
