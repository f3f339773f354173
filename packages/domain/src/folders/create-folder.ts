import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { addField } from './add-field.ts';
import { assertFieldOptions, normalizeField } from './field-definition.ts';
import { ensureFieldIndexes, withInverse } from './field-indexes.ts';
import { assertFieldShape } from './relation-field-changes.ts';
import type { createFolderInput } from './schemas.ts';
import { serializeFolder } from './serialize.ts';

/**
 * Creates a folder with its fields. RELATION fields (and their inverses on other folders) are
 * added after the folder exists, in the same transaction, as `POST /folders/{id}/fields` adds
 * them (a self-relation's target is the new folder, named by its id, which a request cannot
 * know yet: such a field is added afterwards).
 */
export async function createFolder(db: Database, actor: Actor, input: z.infer<typeof createFolderInput>) {
  const fields = input.fields ?? [];
  for (const field of fields) {
    assertFieldOptions(field);
    assertFieldShape(field);
  }
  await ensureFieldIndexes(db, withInverse(fields));
  const plain = fields.filter((f) => f.type !== 'RELATION');
  return db.transaction(async (tx) => {
    let folder = await insertFolder(tx, actor.workspaceId, input.name, plain);
    for (const field of fields) {
      if (field.type === 'RELATION') folder = await addField(tx, actor, folder.id, field);
    }
    await audit(tx, actor, {
      action: 'folder.created',
      target: { type: 'folder', id: folder.id },
      details: { name: folder.name, fields: fields.map((f) => ({ key: f.key, type: f.type })) },
    });
    return serializeFolder(folder);
  });
}

/** Inserts a folder; also used when a workspace is created with its default folder. */
export async function insertFolder(
  tx: Executor,
  workspaceId: string,
  name: string,
  fields: Pick<FieldDefinition, 'key' | 'label' | 'type' | 'options'>[],
) {
  const [row] = await tx
    .insert(schema.folders)
    .values({ workspaceId, id: newId('folder'), name, type: 'CUSTOM', fields: fields.map(normalizeField) })
    .returning();
  if (!row) missing('the row insert … returning wrote (row)');
  return row;
}
