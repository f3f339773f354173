import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { findRecordItems, getRecordItem } from '../records/find-record-items.ts';
import type { Actor } from '../shared/actor.ts';
import type { FindCommentsInput, GetCommentInput } from './schemas.ts';
import { serializeComment } from './serialize.ts';

/** A page of a live record's comments, oldest first (docs/api.md, "Comments and call logs"). */
export function findComments(db: Database, actor: Actor, input: FindCommentsInput) {
  return findRecordItems(db, actor, schema.comments, input, serializeComment);
}

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
