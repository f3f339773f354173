import {
  createSavedView,
  createSavedViewInput,
  DomainError,
  deletedItemOutput,
  deleteSavedView,
  envelope,
  findSavedViews,
  findSavedViewsInput,
  savedViewIdInput,
  savedViewOutput,
  updateSavedView,
  updateSavedViewInput,
} from '@crm/domain';
import { z } from 'zod';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

/**
 * Saved views of the records table (docs/web-app.md, "Saved views"). tRPC only, like `keys.*`
 * and `invitations.*`: a view is a signed-in person's own way of looking at a folder, kept for
 * the web app, and the REST API has no users to keep them for. Every role may keep views; an
 * API key may not (it acts for an integration, not a person at a screen).
 */
const viewerProcedure = authedProcedure.meta({ scope: 'none' }).use(({ ctx, next }) => {
  if (ctx.actor.apiKeyId !== null) {
    throw new DomainError('FORBIDDEN', 'Saved views belong to a signed-in user of the web app');
  }
  return next();
});

export const viewsRouter = router({
  /** The caller's own views of a folder, by name. */
  list: viewerProcedure
    .input(findSavedViewsInput)
    .concat(declaredOutput(envelope(z.array(savedViewOutput))))
    .query(async ({ ctx, input }) => ({ data: await findSavedViews(ctx.db, ctx.actor, input) })),

  create: viewerProcedure
    .input(createSavedViewInput)
    .concat(declaredOutput(envelope(savedViewOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await createSavedView(ctx.db, ctx.actor, input) })),

  update: viewerProcedure
    .input(updateSavedViewInput)
    .concat(declaredOutput(envelope(savedViewOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await updateSavedView(ctx.db, ctx.actor, input) })),

  delete: viewerProcedure
    .input(savedViewIdInput)
    .concat(declaredOutput(envelope(deletedItemOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await deleteSavedView(ctx.db, ctx.actor, input.id) })),
});
