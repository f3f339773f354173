import {
  changeMemberRole,
  changeMemberRoleInput,
  envelope,
  findMembers,
  findMembersInput,
  getMe,
  listEnvelope,
  memberOutput,
  meOutput,
  removeMember,
  removeMemberInput,
} from '@crm/domain';
import { z } from 'zod';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router, settingsProcedure } from '../../trpc.ts';

const tags = ['Workspace'];

export const workspaceRouter = router({
  me: authedProcedure
    .meta(
      restRoute({
        scope: 'none',
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
        scope: 'none',
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

  /** A member's role, changed by an owner or admin in the settings area (tRPC only, like invitations). */
  changeRole: settingsProcedure
    .input(changeMemberRoleInput)
    .concat(declaredOutput(envelope(memberOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await changeMemberRole(ctx.db, ctx.actor, input) })),

  /** Removes a member: their sessions end and their keys stop working at once. */
  removeMember: settingsProcedure
    .input(removeMemberInput)
    .concat(declaredOutput(envelope(z.object({ id: z.string(), removed: z.literal(true) }))))
    .mutation(async ({ ctx, input }) => ({ data: await removeMember(ctx.db, ctx.actor, input) })),
});
