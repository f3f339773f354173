import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { invalidReference } from '../shared/errors.ts';
import type { findSavedViewsInput, SavedViewOutput } from './schemas.ts';
import { serializeSavedView } from './serialize.ts';

const v = schema.savedViews;

/** The caller's views of a folder, by name. */
export async function findSavedViews(
  db: Database,
  actor: Actor,
  input: z.infer<typeof findSavedViewsInput>,
): Promise<SavedViewOutput[]> {
  await loadFolder(db, actor, input.folderId).catch(
    invalidReference('folderId', 'is not a folder of this workspace'),
  );
  const rows = await db
    .select()
    .from(v)
    .where(
      and(eq(v.workspaceId, actor.workspaceId), eq(v.userId, actor.userId), eq(v.folderId, input.folderId)),
    )
    .orderBy(asc(sql`lower(${v.name})`), asc(v.id));
  return rows.map(serializeSavedView);
}
