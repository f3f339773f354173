import {
  apiKeyOutput,
  createApiKey,
  createApiKeyInput,
  envelope,
  findApiKeys,
  revokeApiKey,
} from '@crm/domain';
import { z } from 'zod';
import { declaredOutput, router, settingsProcedure } from '../../trpc.ts';

// tRPC only: no key management is under /api/v1; keys are made in the settings area by a
// signed-in owner or admin (docs/web-app.md, "Keys router"; docs/api.md, "Keys and limits").
const keyIdInput = z.strictObject({ id: z.string() });

export const keysRouter = router({
  list: settingsProcedure
    .input(z.strictObject({}).optional())
    .concat(declaredOutput(envelope(z.array(apiKeyOutput))))
    .query(async ({ ctx }) => ({ data: await findApiKeys(ctx.db, ctx.actor) })),

  /** The secret is in this answer and nowhere else, ever. */
  create: settingsProcedure
    .input(createApiKeyInput)
    .concat(declaredOutput(envelope(apiKeyOutput.extend({ secret: z.string() }))))
    .mutation(async ({ ctx, input }) => {
      const { key, secret } = await createApiKey(
        ctx.db,
        {
          workspaceId: ctx.actor.workspaceId,
          userId: ctx.actor.userId,
          name: input.name,
          scopes: input.scopes,
          folderIds: input.folderIds,
          expiresAt: input.expiresAt,
        },
        ctx.actor,
      );
      return { data: { ...key, secret } };
    }),

  revoke: settingsProcedure
    .input(keyIdInput)
    .concat(declaredOutput(envelope(apiKeyOutput)))
    .mutation(async ({ ctx, input }) => ({
      data: await revokeApiKey(ctx.db, ctx.actor, input.id),
    })),
});
