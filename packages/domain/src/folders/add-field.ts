import type { Executor } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { normalizeField } from './field-definition.ts';
import { lockFolders, MAX_FIELDS, relationDefinitions } from './relation-field-changes.ts';
import { refreshSearchText, saveFields } from './save-fields.ts';
import type { addFieldInput } from './schemas.ts';
import type { FolderRow } from './serialize.ts';

/**
 * Adds a field to a folder in the caller's transaction. A RELATION field with an inverse adds
 * its pair to the target folder too, both folders locked in id order (docs/api.md, "Relations").
 */
export async function addField(
  tx: Executor,
  actor: Actor,
  id: string,
  definition: Omit<z.infer<typeof addFieldInput>, 'id'>,
): Promise<FolderRow> {
  const targetId = definition.relation?.folderId;
  const locked = await lockFolders(tx, actor, [
    { id, path: 'id' },
    ...(targetId ? [{ id: targetId, path: 'relation.folderId' }] : []),
  ]);
  const folder = locked.get(id) ?? missing('the folder lockFolders locked');
  if (folder.fields.some((f) => f.key === definition.key)) {
    throw invalid('key', `the folder already has a field ${definition.key}`);
  }
  if (folder.fields.length >= MAX_FIELDS) throw invalid('key', `a folder holds at most ${MAX_FIELDS} fields`);
  if (definition.type !== 'RELATION') {
    const saved = await saveFields(tx, actor, id, [...folder.fields, normalizeField(definition)]);
    // Values stored under this key earlier (before a remove) are gone, so only TEXT changes search.
    if (definition.type === 'TEXT') await refreshSearchText(tx, actor, saved);
    return saved;
  }
  const target =
    (targetId && locked.get(targetId)) || missing('the target folder of a RELATION field, locked above');
  const { field, inverse } = relationDefinitions(folder, target, definition);
  if (inverse && target.id === folder.id) {
    return saveFields(tx, actor, id, [...folder.fields, field, inverse]);
  }
  if (inverse) await saveFields(tx, actor, target.id, [...target.fields, inverse]);
  return saveFields(tx, actor, id, [...folder.fields, field]);
}
