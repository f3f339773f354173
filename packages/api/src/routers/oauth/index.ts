import {
  connectedAppOutput,
  DomainError,
  envelope,
  findConnectedApps,
  revokeConnectedApp,
  revokeConnectedAppInput,
} from '@crm/domain';
import { z } from 'zod';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

/**
 * The apps a signed-in user allowed over OAuth (docs/mcp.md, "OAuth"), for Settings →
 * Connected apps. tRPC only, and only for the user themself: each member sees and revokes
 * their own grants.
 */
const ownProcedure = authedProcedure.meta({ scope: 'none' }).use(({ ctx, next }) => {
  if (ctx.actor.apiKeyId !== null) {
    throw new DomainError('FORBIDDEN', 'Connected apps are managed by a signed-in user in the settings area');
  }
  return next();
});

export const oauthRouter = router({
  connectedApps: ownProcedure
    .input(z.strictObject({}).optional())
    .concat(declaredOutput(envelope(z.array(connectedAppOutput))))
    .query(({ ctx }) => findConnectedApps(ctx.db, ctx.actor)),

  revoke: ownProcedure
    .input(revokeConnectedAppInput)
    .concat(declaredOutput(envelope(z.object({ grantId: z.string(), revoked: z.literal(true) }))))
    .mutation(async ({ ctx, input }) => ({ data: await revokeConnectedApp(ctx.db, ctx.actor, input) })),
});
