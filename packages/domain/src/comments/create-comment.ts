import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { loadRecord } from '../records/load-record.ts';
import type { Actor } from '../shared/actor.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import type { CreateCommentInput } from './schemas.ts';
import { serializeComment } from './serialize.ts';

/**
 * Adds a comment to a live record. The author's display name is stored on the row, so the
 * comment keeps showing who wrote it after that user is renamed or removed.
 */
export async function createComment(db: Database, actor: Actor, input: CreateCommentInput) {
  return db.transaction(async (tx) => {
    // Locking the record keeps a concurrent DELETE from moving it to Trash between the check
    // and the insert (the foreign key alone takes a lock that a trash update does not wait on).
    await loadRecord(tx, actor, input.id, { forUpdate: true });
    const [row] = await tx
      .insert(schema.comments)
      .values({
        workspaceId: actor.workspaceId,
        id: newId('comment'),
        recordId: input.id,
        text: input.text,
        authorId: actor.userId,
        author: actor.userName,
      })
      .returning();
    if (!row) missing('the row insert … returning wrote (row)');
    return serializeComment(row);
  });
}
