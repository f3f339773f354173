import { savedViewLimits } from '@crm/constants';
import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid, invalidReference } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { checkDefinition } from './check-definition.ts';
import { sameName } from './same-name.ts';
import type { createSavedViewInput, SavedViewOutput } from './schemas.ts';
import { serializeSavedView } from './serialize.ts';

const v = schema.savedViews;

export async function createSavedView(
  db: Executor,
  actor: Actor,
  input: z.infer<typeof createSavedViewInput>,
): Promise<SavedViewOutput> {
  return db.transaction(async (tx) => {
    const folder = await loadFolder(tx, actor, input.folderId).catch(
      invalidReference('folderId', 'is not a folder of this workspace'),
    );
    const definition = await checkDefinition(tx, actor, folder, input.definition);
    const [{ held } = { held: 0 }] = await tx
      .select({ held: count() })
      .from(v)
      .where(and(eq(v.workspaceId, actor.workspaceId), eq(v.userId, actor.userId)));
    if (held >= savedViewLimits.perUser) {
      throw invalid('name', `you have ${held} saved views, the most one person may keep; delete one first`);
    }
    const [row] = await sameName(input.name, () =>
      tx
        .insert(v)
        .values({
          workspaceId: actor.workspaceId,
          id: newId('view'),
          userId: actor.userId,
          folderId: folder.id,
          name: input.name,
          definition,
        })
        .returning(),
    );
    if (!row) missing('the row insert … returning wrote (row)');
    return serializeSavedView(row);
  });
}
