import type { Database } from '@crm/db';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { loadFolder } from './load-folder.ts';
import { saveFields } from './save-fields.ts';
import type { updateFolderInput } from './schemas.ts';
import { serializeFolder } from './serialize.ts';

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
