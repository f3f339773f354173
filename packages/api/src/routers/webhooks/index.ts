import {
  createWebhook,
  createWebhookInput,
  deletedOutput,
  deleteWebhook,
  deliveryIdInput,
  deliveryOutput,
  envelope,
  findDeliveries,
  findDeliveriesInput,
  findWebhooks,
  findWebhooksInput,
  getDelivery,
  getWebhook,
  listEnvelope,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  updateWebhookInput,
  webhookIdInput,
  webhookOutput,
  webhookWithSecretOutput,
} from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Webhooks'];
const one = envelope(webhookOutput);
const withSecret = envelope(webhookWithSecretOutput);

export const webhooksRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:read',
        openapi: {
          method: 'GET',
          path: '/webhooks',
          tags,
          summary: 'List webhook subscriptions',
          description: 'Newest first. Secrets are never listed; custom header values are masked.',
        },
      }),
    )
    .input(findWebhooksInput)
    .concat(declaredOutput(listEnvelope(webhookOutput)))
    .query(({ ctx, input }) => findWebhooks(ctx.db, ctx.actor, input)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:read',
        openapi: {
          method: 'GET',
          path: '/webhooks/{id}',
          tags,
          summary: 'Get a webhook subscription',
          description:
            'The subscription without its secret; custom header values are masked. Carries an ETag; If-None-Match answers 304.',
        },
        errors: [404],
      }),
    )
    .input(webhookIdInput)
    .concat(declaredOutput(one))
    .query(async ({ ctx, input }) => ({ data: await getWebhook(ctx.db, ctx.actor, input.id) })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:write',
        openapi: {
          method: 'POST',
          path: '/webhooks',
          tags,
          summary: 'Create a webhook subscription (REST hooks: subscribe)',
          description:
            'Zapier-style REST hooks subscribe is exactly this call. The answer carries the signing `secret`, shown only here and on rotation. The URL must be http(s) and resolve to a public address. At most 50 subscriptions per workspace.',
        },
        successStatus: 201,
        location: '/webhooks/{id}',
      }),
    )
    .input(createWebhookInput)
    .concat(declaredOutput(withSecret))
    .mutation(async ({ ctx, input }) => ({
      data: await createWebhook(ctx.db, ctx.actor, input, ctx.services),
    })),

  update: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:write',
        openapi: {
          method: 'PATCH',
          path: '/webhooks/{id}',
          tags,
          summary: 'Update a webhook subscription',
          description:
            'Fields not given stay; `headers` replaces the set. `enabled: true` re-enables a subscription the service disabled and clears `disabledReason`.',
        },
        errors: [404],
      }),
    )
    .input(updateWebhookInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({
      data: await updateWebhook(ctx.db, ctx.actor, input, ctx.services),
    })),

  delete: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:delete',
        openapi: {
          method: 'DELETE',
          path: '/webhooks/{id}',
          tags,
          summary: 'Delete a webhook subscription (REST hooks: unsubscribe)',
          description:
            'Zapier-style REST hooks unsubscribe is exactly this call. Its deliveries are deleted with it.',
        },
        errors: [404],
      }),
    )
    .input(webhookIdInput)
    .concat(declaredOutput(deletedOutput))
    .mutation(async ({ ctx, input }) => ({ data: await deleteWebhook(ctx.db, ctx.actor, input.id) })),

  rotateSecret: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:write',
        openapi: {
          method: 'POST',
          path: '/webhooks/{id}/rotate-secret',
          tags,
          summary: 'Rotate the signing secret of a webhook subscription',
          description:
            'Returns the new secret once. For 24 hours the previous secret keeps signing next to it: `X-Service-Signature` is made with the new secret, `X-Service-Signature-Previous` with the previous one, and `webhook-signature` carries both, newest first. Rotating again within them drops the older secret.',
        },
        errors: [404],
      }),
    )
    .input(webhookIdInput)
    .concat(declaredOutput(withSecret))
    .mutation(async ({ ctx, input }) => ({ data: await rotateWebhookSecret(ctx.db, ctx.actor, input.id) })),

  test: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:write',
        openapi: {
          method: 'POST',
          path: '/webhooks/{id}/test',
          tags,
          summary: 'Send a test event to a webhook subscription',
          description:
            'Queues a `webhook.test` event (no record, `test: true`) to this subscription only and answers with the queued delivery; follow it in the deliveries list. 400 when the subscription is disabled.',
        },
        errors: [404],
      }),
    )
    .input(webhookIdInput)
    .concat(declaredOutput(envelope(deliveryOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await sendTestEvent(ctx.db, ctx.actor, input.id) })),

  deliveries: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:read',
        openapi: {
          method: 'GET',
          path: '/webhooks/{id}/deliveries',
          tags,
          summary: 'List the deliveries of a webhook subscription',
          description:
            'Newest first, each with its attempts in order (status, response code, duration, first 4 KiB of the response). Kept 30 days.',
        },
        errors: [404],
      }),
    )
    .input(findDeliveriesInput)
    .concat(declaredOutput(listEnvelope(deliveryOutput)))
    .query(({ ctx, input }) => findDeliveries(ctx.db, ctx.actor, input)),

  delivery: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:read',
        openapi: {
          method: 'GET',
          path: '/deliveries/{id}',
          tags,
          summary: 'Get a delivery',
          description: 'One delivery with its attempts in order, as the deliveries list shows it.',
        },
        errors: [404],
      }),
    )
    .input(deliveryIdInput)
    .concat(declaredOutput(envelope(deliveryOutput)))
    .query(async ({ ctx, input }) => ({ data: await getDelivery(ctx.db, ctx.actor, input.id) })),

  redeliver: authedProcedure
    .meta(
      restRoute({
        scope: 'webhooks:write',
        openapi: {
          method: 'POST',
          path: '/deliveries/{id}/redeliver',
          tags,
          summary: 'Send a delivery again',
          description:
            'Creates a new delivery of the same event (same event id, so the same `webhook-id`) with `redeliveryOf` set, queued now even if the original succeeded. 400 when the subscription is disabled or the event is older than 30 days.',
        },
        successStatus: 201,
        location: '/deliveries/{id}',
        errors: [404],
      }),
    )
    .input(deliveryIdInput)
    .concat(declaredOutput(envelope(deliveryOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await redeliver(ctx.db, ctx.actor, input.id) })),
});
