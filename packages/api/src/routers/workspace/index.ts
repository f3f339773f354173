import {
  envelope,
  findMembers,
  findMembersInput,
  getMe,
  listEnvelope,
  memberOutput,
  meOutput,
} from '@crm/domain';
import { z } from 'zod';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Workspace'];

export const workspaceRouter = router({
  me: authedProcedure
    .meta(
      restRoute({
        openapi: {
          method: 'GET',
          path: '/me',
          tags,
          summary: 'The workspace, user and key of this request',
          description:
            'Also the workspace rate limit as of this request, the request itself counted: the values of its RateLimit-* headers.',
        },
        resource: 'volatile',
      }),
    )
    .input(z.strictObject({}))
    .concat(declaredOutput(envelope(meOutput)))
    .query(async ({ ctx }) => ({ data: await getMe(ctx.db, ctx.actor) })),

  members: authedProcedure
    .meta(
      restRoute({
        openapi: {
          method: 'GET',
          path: '/members',
          tags,
          summary: 'List the members of the workspace',
          description: 'Oldest first. Page with `page` or `cursor`.',
        },
      }),
    )
    .input(findMembersInput)
    .concat(declaredOutput(listEnvelope(memberOutput)))
    .query(({ ctx, input }) => findMembers(ctx.db, ctx.actor, input)),
});
