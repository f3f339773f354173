import {
  commentOutput,
  createComment,
  createCommentInput,
  envelope,
  findComments,
  findCommentsInput,
  getComment,
  getCommentInput,
  listEnvelope,
} from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Comments'];

export const commentsRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'comments:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/comments',
          tags,
          summary: "List a record's comments",
          description: 'Oldest first. Page with `page` or `cursor`. A record in Trash is not found.',
        },
        errors: [404],
      }),
    )
    .input(findCommentsInput)
    .concat(declaredOutput(listEnvelope(commentOutput)))
    .query(({ ctx, input }) => findComments(ctx.db, ctx.actor, input)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'comments:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/comments/{commentId}',
          tags,
          summary: 'Get a comment of a record',
          description: 'A record in Trash is not found.',
        },
        errors: [404],
      }),
    )
    .input(getCommentInput)
    .concat(declaredOutput(envelope(commentOutput)))
    .query(async ({ ctx, input }) => ({ data: await getComment(ctx.db, ctx.actor, input) })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'comments:write',
        openapi: {
          method: 'POST',
          path: '/records/{id}/comments',
          tags,
          summary: 'Comment on a record',
          description:
            "Answers 201 with the comment; its `author` is the display name of the API key's user.",
        },
        successStatus: 201,
        location: '/records/{recordId}/comments/{id}',
        errors: [404],
      }),
    )
    .input(createCommentInput)
    .concat(declaredOutput(envelope(commentOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await createComment(ctx.db, ctx.actor, input) })),
});
