import type { Database } from '@crm/db';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { addField } from './add-field.ts';
import { assertFieldOptions as checkOptions } from './field-definition.ts';
import { ensureFieldIndexes, withInverse } from './field-indexes.ts';
import { loadFolder } from './load-folder.ts';
import { assertFieldShape } from './relation-field-changes.ts';
import type { addFieldInput } from './schemas.ts';
import { serializeFolder } from './serialize.ts';

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
