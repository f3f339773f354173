import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { getRecordItem } from '../records/find-record-items.ts';
import type { Actor } from '../shared/actor.ts';
import type { GetCommentInput } from './schemas.ts';
import { serializeComment } from './serialize.ts';

/** One comment of a live record (404 when the record or the comment is not found). */
export function getComment(db: Database, actor: Actor, input: GetCommentInput) {
  return getRecordItem(
    db,
    actor,
    schema.comments,
    { id: input.id, itemId: input.commentId },
    { kind: 'comment', name: 'Comment' },
    serializeComment,
  );
}
