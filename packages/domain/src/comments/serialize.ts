import type { schema } from '@crm/db';
import type { CommentOutput } from './schemas.ts';

export type CommentRow = typeof schema.comments.$inferSelect;

export function serializeComment(row: CommentRow): CommentOutput {
  return {
    id: row.id,
    recordId: row.recordId,
    text: row.text,
    author: row.author,
    authorId: row.authorId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
