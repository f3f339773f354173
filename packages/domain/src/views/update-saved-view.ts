import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { checkDefinition } from './check-definition.ts';
import { loadOwnView } from './load-own-view.ts';
import { sameName } from './same-name.ts';
import type { SavedViewOutput, updateSavedViewInput } from './schemas.ts';
import { type SavedViewRow, serializeSavedView } from './serialize.ts';

const v = schema.savedViews;

export async function updateSavedView(
  db: Executor,
  actor: Actor,
  input: z.infer<typeof updateSavedViewInput>,
): Promise<SavedViewOutput> {
  return db.transaction(async (tx) => {
    const current = await loadOwnView(tx, actor, input.id, true);
    const changes: Partial<Pick<SavedViewRow, 'name' | 'definition'>> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.definition !== undefined) {
      const folder = await loadFolder(tx, actor, current.folderId);
      changes.definition = await checkDefinition(tx, actor, folder, input.definition);
    }
    if (Object.keys(changes).length === 0) return serializeSavedView(current);
    const [row] = await sameName(input.name ?? current.name, () =>
      tx
        .update(v)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(and(eq(v.workspaceId, actor.workspaceId), eq(v.id, current.id)))
        .returning(),
    );
    if (!row) missing('the row update … returning wrote (row)');
    return serializeSavedView(row);
  });
}
