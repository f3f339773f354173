import {
  createInvitation,
  createInvitationInput,
  envelope,
  findInvitations,
  invitationOutput,
  revokeInvitation,
} from '@crm/domain';
import { z } from 'zod';
import { declaredOutput, router, settingsProcedure } from '../../trpc.ts';

// tRPC only, for the settings area: inviting members with a role.
export const invitationsRouter = router({
  list: settingsProcedure
    .input(z.strictObject({}).optional())
    .concat(declaredOutput(envelope(z.array(invitationOutput))))
    .query(async ({ ctx }) => ({ data: await findInvitations(ctx.db, ctx.actor) })),

  /** `token` goes into the link the inviter passes on (`/accept-invitation#<token>`); shown once. */
  create: settingsProcedure
    .input(createInvitationInput)
    .concat(declaredOutput(envelope(invitationOutput.extend({ token: z.string() }))))
    .mutation(async ({ ctx, input }) => {
      const { invitation, token } = await createInvitation(ctx.db, ctx.actor, input);
      return { data: { ...invitation, token } };
    }),

  revoke: settingsProcedure
    .input(z.strictObject({ id: z.string() }))
    .concat(declaredOutput(envelope(invitationOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await revokeInvitation(ctx.db, ctx.actor, input.id) })),
});
