import { z } from 'zod';
import { pagingInput } from '../shared/paging.ts';
import { idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';

export const MAX_COMMENT_LENGTH = 10_000;

export const commentOutput = z
  .object({
    id: z.string().meta({ example: 'note_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    recordId: z.string(),
    text: z.string(),
    author: z.string().meta({ description: 'Display name of the user who wrote the comment.' }),
    authorId: z
      .string()
      .nullable()
      .meta({ description: 'The user (usr_…) who wrote it; null once that user is deleted.' }),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'Comment' });

export type CommentOutput = z.infer<typeof commentOutput>;

export const findCommentsInput = z.strictObject({
  id: idParam('Record id'),
  ...pagingInput,
});

export type FindCommentsInput = z.infer<typeof findCommentsInput>;

export const createCommentInput = z.strictObject({
  id: idParam('Record id'),
  text: nonBlankText(MAX_COMMENT_LENGTH, `must be at most ${MAX_COMMENT_LENGTH} characters`).meta({
    description: `The comment, 1 to ${MAX_COMMENT_LENGTH} characters after trimming.`,
  }),
});

export type CreateCommentInput = z.infer<typeof createCommentInput>;

export const getCommentInput = z.strictObject({
  id: idParam('Record id'),
  commentId: idParam('Comment id'),
});

export type GetCommentInput = z.infer<typeof getCommentInput>;
