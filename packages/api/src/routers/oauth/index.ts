import {
  connectedAppOutput,
  DomainError,
  envelope,
  findApps,
  findConnectedApps,
  registerApp,
  registerAppInput,
  registeredAppOutput,
  removeApp,
  removeAppInput,
  revokeConnectedApp,
  revokeConnectedAppInput,
  workspaceAppOutput,
} from '@crm/domain';
import { z } from 'zod';
import { authedProcedure, declaredOutput, router, settingsProcedure } from '../../trpc.ts';

/**
 * The apps a signed-in user allowed over OAuth (docs/mcp.md, "OAuth"), for Settings →
 * Connected apps, and the apps an admin registers for the workspace, for Settings → Apps.
 * tRPC only, for a signed-in user: each member sees and revokes their own grants.
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

  /**
   * The apps of the workspace (docs/apps.md, "Apps of the workspace"): registered by an owner
   * or admin in Settings → Apps, each a client of the OAuth server with client credentials.
   */
  apps: settingsProcedure
    .input(z.strictObject({}).optional())
    .concat(declaredOutput(envelope(z.array(workspaceAppOutput))))
    .query(({ ctx }) => findApps(ctx.db, ctx.actor)),

  registerApp: settingsProcedure
    .input(registerAppInput)
    .concat(declaredOutput(envelope(registeredAppOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await registerApp(ctx.db, ctx.actor, input) })),

  removeApp: settingsProcedure
    .input(removeAppInput)
    .concat(declaredOutput(envelope(z.object({ clientId: z.string(), removed: z.literal(true) }))))
    .mutation(async ({ ctx, input }) => ({ data: await removeApp(ctx.db, ctx.actor, input) })),
});
