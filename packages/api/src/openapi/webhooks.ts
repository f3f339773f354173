import { type EventPayloadKind, eventPayloads } from '@crm/domain';
import { createDocument, type ZodOpenApiPathItemObject } from 'zod-openapi';

type Json = Record<string, unknown>;

/** The headers of every delivery (docs/webhooks.md, "Headers and signatures"). */
const DELIVERY_HEADERS: [string, string, boolean][] = [
  ['X-Service-Event', 'The event kind', true],
  ['X-Service-Delivery', 'The delivery id (dlv_…); a redelivery has a new one', true],
  [
    'X-Service-Signature',
    '`sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the subscription secret (its UTF-8 bytes), made with the newest secret',
    true,
  ],
  [
    'X-Service-Signature-Previous',
    'During the 24 hours after a secret rotation: the same, made with the previous secret',
    false,
  ],
  ['webhook-id', 'The event id (Standard Webhooks): the same on every retry and redelivery', true],
  ['webhook-timestamp', 'Unix seconds of this attempt (Standard Webhooks)', true],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` (Standard Webhooks), one per valid secret, newest first, separated by a space',
    true,
  ],
];

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event kind, the POST a subscription's
 * URL receives, with its typed payload and headers. The generator of the REST document does
 * not take webhooks, so they are made with zod-openapi's own document builder from the
 * payload schemas and merged in, with the component schemas they refer to.
 */
export function webhookSection(): { webhooks: Json; schemas: Json } {
  const webhooks: Record<string, ZodOpenApiPathItemObject> = {};
  for (const kind of Object.keys(eventPayloads) as EventPayloadKind[]) {
    const schema = eventPayloads[kind];
    webhooks[kind] = {
      post: {
        operationId: `on_${kind.replace('.', '_')}`,
        tags: ['Webhooks'],
        // The receiver checks the signature headers; the service sends no credential.
        security: [],
        summary: `${kind} delivered to a subscription`,
        description: `${schema.meta()?.description ?? ''} POSTed to every enabled subscription of the workspace that listens to \`${kind}\` (or \`*\`), signed, and retried until it answers 2xx. Verify the raw body before parsing it.`,
        parameters: DELIVERY_HEADERS.map(([name, description, required]) => ({
          in: 'header' as const,
          name,
          required,
          description,
          schema: { type: 'string' as const },
        })),
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: {
          '200': { description: 'Any 2xx answer within 15 s acknowledges the delivery' },
          '410': { description: 'Gone: disables the subscription at once' },
        },
      },
    };
  }
  const doc = createDocument({
    openapi: '3.1.0',
    info: { title: 'webhooks', version: '1' },
    webhooks,
  }) as unknown as { webhooks: Json; components?: { schemas?: Json } };
  return { webhooks: doc.webhooks, schemas: doc.components?.schemas ?? {} };
}
