import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { ensureFieldIndexes } from './field-indexes.ts';
import type { createFolderInput } from './schemas.ts';
import { serializeFolder } from './serialize.ts';

export async function createFolder(db: Database, actor: Actor, input: z.infer<typeof createFolderInput>) {
  for (const field of input.fields ?? []) assertFieldOptions(field);
  await ensureFieldIndexes(db, input.fields ?? []);
  return db.transaction(async (tx) =>
    serializeFolder(await insertFolder(tx, actor.workspaceId, input.name, input.fields ?? [])),
  );
}

/** Inserts a folder; also used when a workspace is created with its default folder. */
export async function insertFolder(
  tx: Executor,
  workspaceId: string,
  name: string,
  fields: FieldDefinition[],
) {
  const [row] = await tx
    .insert(schema.folders)
    .values({ workspaceId, id: newId('folder'), name, type: 'CUSTOM', fields: fields.map(normalizeField) })
    .returning();
  return row!;
}

export function normalizeField(field: FieldDefinition): FieldDefinition {
  return field.options
    ? { key: field.key, label: field.label, type: field.type, options: field.options }
    : { key: field.key, label: field.label, type: field.type };
}

/** SELECT and MULTI_SELECT fields need options; no other type may have them. */
export function assertFieldOptions(field: { type: string; options?: string[] | undefined }) {
  const needsOptions = field.type === 'SELECT' || field.type === 'MULTI_SELECT';
  if (needsOptions && !field.options?.length)
    throw invalid('options', `is required for ${field.type} fields`);
  if (!needsOptions && field.options)
    throw invalid('options', 'only SELECT and MULTI_SELECT fields have options');
}
