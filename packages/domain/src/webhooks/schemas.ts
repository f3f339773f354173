import { deliveryStatuses } from '@crm/db/schema';
import { z } from 'zod';
import { eventTypes } from '../shared/events.ts';
import { missing } from '../shared/missing.ts';
import { pagingInput } from '../shared/paging.ts';
import { FIELD_KEY, idParam, instantOutput, trimmedText } from '../shared/schemas.ts';

/** The pattern the document gives a subscription URL; the checks below decide the rest. */
const HTTP_URL_PATTERN = '^\\s*[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]';

/** Limits of a subscription (docs/webhooks.md, "Managing subscriptions (REST and tRPC)"). */
export const MAX_WEBHOOKS_PER_WORKSPACE = 50;
const MAX_CUSTOM_HEADERS = 20;
const MAX_HEADER_VALUE = 1000;

/** Top-level record fields a `record.updated` subscription may narrow to (besides `data.<key>`). */
const RECORD_FIELD_NAMES = ['title', 'email', 'phone', 'ownerId', 'folderId'] as const;
/** Deal fields a `deal.updated` subscription may narrow to (besides `data.<key>`). */
const DEAL_FIELD_NAMES = ['stageId', 'title', 'amount', 'currency', 'closeDate', 'recordId'] as const;
/** Task fields a `task.updated` subscription may narrow to. */
const TASK_FIELD_NAMES = ['title', 'dueAt', 'assigneeId', 'recordId', 'status', 'priority', 'type'] as const;
const FIELD_NAMES: readonly string[] = [
  ...new Set([...RECORD_FIELD_NAMES, ...DEAL_FIELD_NAMES, ...TASK_FIELD_NAMES]),
];
/** The events `fields` narrows: every `*.updated`. */
const NARROWED_EVENTS = ['record.updated', 'deal.updated', 'task.updated'];

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Visible ASCII, space and tab: no CR/LF (header injection) and nothing a client library refuses. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/**
 * Headers the service sets itself or that frame the request: a subscription may not override
 * them (the signature and Standard Webhooks headers must be the service's own).
 */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-connection',
]);
const RESERVED_PREFIXES = ['x-service-', 'webhook-'];

const isFieldName = (name: string) =>
  FIELD_NAMES.includes(name) || (name.startsWith('data.') && FIELD_KEY.test(name.slice(5)));

const url = z
  .string()
  .max(2048)
  .trim()
  .min(1)
  .refine((value) => {
    const parsed = URL.canParse(value) ? new URL(value) : null;
    return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
  }, 'must be an http or https URL')
  .refine((value) => {
    const parsed = URL.canParse(value) ? new URL(value) : null;
    return !parsed || (parsed.username === '' && parsed.password === '');
  }, 'must not carry credentials; send them as a custom header instead')
  .meta({
    pattern: HTTP_URL_PATTERN,
    description:
      'http(s) URL the events are POSTed to. Also refused, which the pattern cannot say: a URL that does not parse, one with a user name or password (send them as a custom header), and an address the service will not call (private, loopback and link-local networks unless the operator allows them).',
    example: 'https://hooks.example.com/crm',
  });

/** Deduplicated; `*` alone when given (it already means every kind). */
const events = z
  .array(z.enum([...eventTypes, '*']))
  .min(1, 'must name at least one event kind')
  .max(50)
  .transform((kinds) => (kinds.includes('*') ? ['*'] : [...new Set(kinds)]))
  .meta({ description: 'Event kinds to receive, or `["*"]` for all', example: ['deal.stage_changed'] });

const fields = z
  .array(z.string().refine(isFieldName, `must be one of ${FIELD_NAMES.join(', ')} or data.<field key>`))
  .max(50)
  .transform((names) => [...new Set(names)])
  .meta({
    description:
      'Only with `record.updated`, `deal.updated`, `task.updated` or `*`: deliver those events only when one of these fields changed (a record’s `title`, `email`, `phone`, `ownerId`, `folderId`; a deal’s `stageId`, `title`, `amount`, `currency`, `closeDate`, `recordId`; a task’s `title`, `dueAt`, `assigneeId`, `recordId`, `status`, `priority`, `type`; `data.<key>` of records and deals). Empty: any change. Other events are sent as usual.',
    example: ['title', 'data.lifecycle', 'stageId'],
  });

/** What `maskHeaderValue` shows: up to 4 characters and `…`, which no stored value contains. */
export const MASKED_VALUE = /^[\t\x20-\x7e]{0,4}…$/;

/** Custom headers; a PATCH may send back masked values (`allowMasked`), which keep the stored ones. */
const headers = (options: { allowMasked: boolean }) =>
  z
    .record(
      z.string().meta({ pattern: HEADER_NAME.source }),
      z.string().meta({
        maxLength: MAX_HEADER_VALUE,
        pattern: options.allowMasked
          ? `^(${HEADER_VALUE.source.slice(1, -1)}|${MASKED_VALUE.source.slice(1, -1)})$`
          : HEADER_VALUE.source,
      }),
    )
    .superRefine((value, ctx) => {
      const names = Object.keys(value);
      if (names.length > MAX_CUSTOM_HEADERS) {
        ctx.addIssue({ code: 'custom', message: `at most ${MAX_CUSTOM_HEADERS} headers` });
      }
      const seen = new Set<string>();
      for (const name of names) {
        const lower = name.toLowerCase();
        const text = value[name] ?? missing('value[name]');
        const problem = !HEADER_NAME.test(name)
          ? 'is not a valid header name'
          : RESERVED_HEADERS.has(lower) || RESERVED_PREFIXES.some((p) => lower.startsWith(p))
            ? 'is set by the service and cannot be overridden'
            : seen.has(lower)
              ? 'is given twice (header names ignore case)'
              : text.length > MAX_HEADER_VALUE
                ? `must be at most ${MAX_HEADER_VALUE} characters`
                : !HEADER_VALUE.test(text) && !(options.allowMasked && MASKED_VALUE.test(text))
                  ? 'must hold only printable ASCII characters (no line breaks)'
                  : null;
        seen.add(lower);
        if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      }
    })
    .meta({
      maxProperties: MAX_CUSTOM_HEADERS,
      description: `Up to ${MAX_CUSTOM_HEADERS} static headers sent with every delivery (e.g. a token for receivers that cannot check the signature). Values are printable ASCII, at most ${MAX_HEADER_VALUE} characters, and are returned masked. Not Content-Type, Content-Length, User-Agent, Host, Connection, Keep-Alive, Transfer-Encoding, TE, Trailer, Upgrade, Expect, Proxy-Connection or a name starting X-Service- or Webhook-, which the service sets, and no name twice in different letter case.`,
      example: { Authorization: 'Bearer abc123' },
    });

const description = trimmedText(500);

/** Why `fields` makes no sense for these events, or null when it does. */
export function fieldsProblem(eventKinds: readonly string[], fieldNames: readonly string[]): string | null {
  if (fieldNames.length === 0) return null;
  if (eventKinds.includes('*') || eventKinds.some((kind) => NARROWED_EVENTS.includes(kind))) return null;
  return 'narrows record.updated, deal.updated and task.updated only: subscribe to one of them or * (or send fields: [])';
}

export const createWebhookInput = z.strictObject({
  url,
  events,
  fields: fields.optional(),
  headers: headers({ allowMasked: false }).optional(),
  description: description.optional(),
  enabled: z.boolean().optional().meta({ description: 'Default true' }),
});
// `fields` against `events` is checked by createWebhook: a refinement here would make the
// OpenAPI generator rebuild the body as an open object.

export const updateWebhookInput = z.strictObject({
  id: idParam('Webhook subscription id'),
  url: url.optional(),
  events: events.optional(),
  fields: fields.optional(),
  headers: headers({ allowMasked: true }).optional().meta({
    description:
      'Replaces all custom headers. A value sent back exactly as shown (masked) keeps the stored one.',
  }),
  description: description.optional(),
  enabled: z
    .boolean()
    .optional()
    .meta({ description: 'true re-enables a subscription the service disabled and clears `disabledReason`' }),
});

export const webhookIdInput = z.strictObject({ id: idParam('Webhook subscription id') });
export const findWebhooksInput = z.strictObject({ ...pagingInput });
export const findDeliveriesInput = z.strictObject({ id: idParam('Webhook subscription id'), ...pagingInput });
export const deliveryIdInput = z.strictObject({ id: idParam('Delivery id') });

export const webhookOutput = z
  .object({
    id: z.string().meta({ example: 'wh_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    url: z.string(),
    events: z.array(z.string()),
    fields: z.array(z.string()),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: 'Custom headers, values masked', example: { Authorization: 'Bear…' } }),
    description: z.string(),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .meta({ description: 'Why the service disabled the subscription; null unless it did' }),
    lastSuccessAt: instantOutput().nullable(),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'Webhook' });

export const webhookWithSecretOutput = webhookOutput
  .extend({
    secret: z.string().meta({
      description: 'Signing secret (`whsec_…`). Shown only in this response: store it now.',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
  })
  .meta({ id: 'WebhookWithSecret' });

export type WebhookOutput = z.infer<typeof webhookOutput>;

const deliveryAttemptOutput = z
  .object({
    attempt: z.number().int(),
    startedAt: instantOutput(),
    durationMs: z.number().int(),
    responseStatus: z.number().int().nullable().meta({ description: 'null when no response came' }),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable().meta({ description: 'First 4 KiB of the response body' }),
  })
  .meta({ id: 'DeliveryAttempt' });

export const deliveryOutput = z
  .object({
    id: z.string().meta({ example: 'dlv_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    webhookId: z.string(),
    eventId: z.string(),
    event: z.string().nullable().meta({ description: 'Event kind; null once the event is no longer kept' }),
    status: z.enum(deliveryStatuses).meta({
      description: 'CAPTURED: a sandbox kept it instead of sending it (docs/operations.md, "Sandboxes")',
    }),
    attemptCount: z.number().int(),
    nextAttemptAt: instantOutput().nullable(),
    redeliveryOf: z.string().nullable().meta({ description: 'The delivery this one repeats' }),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
    attempts: z.array(deliveryAttemptOutput).meta({ description: 'Every attempt, in order' }),
    body: z.unknown().nullable().meta({
      description:
        'For a CAPTURED delivery: the JSON body it would have sent (null once the event is no longer kept); null otherwise',
    }),
  })
  .meta({ id: 'Delivery' });

export type DeliveryOutput = z.infer<typeof deliveryOutput>;
