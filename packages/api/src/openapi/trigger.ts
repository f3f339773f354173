import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorCodeMappings } from '../errors.ts';
import { errorSchema, ref } from './components.ts';

/**
 * Where the trigger endpoints live, below the service's root rather than /api/v1: the
 * document gives the path item a server of its own, `<service root>/api/webhooks`, and the
 * path `/trigger/{workflowId}` below it, so that the server URL followed by the path is the
 * real URL however a tool joins them (appended then resolved against the document's address,
 * or resolved then appended). A root server (`/`) would give `//api/…` when appended.
 */
const TRIGGER_SERVER_PATH = '/api/webhooks';
/** The trigger operation's path in the document, below TRIGGER_SERVER_PATH. */
export const TRIGGER_OPERATION_PATH = '/trigger/{workflowId}';
/** The whole path of a trigger URL, as the server routes it. */
export const TRIGGER_PATH_TEMPLATE = `${TRIGGER_SERVER_PATH}${TRIGGER_OPERATION_PATH}`;

/** What a call to a trigger URL answers once its run is queued (docs/workflows.md, "The trigger endpoint"). */
const triggerAcceptedOutput = z
  .object({
    ok: z.literal(true),
    workflowId: z.string().meta({ example: 'wf_7ztm1m0ny2bk3r2yj0jvbxg0qa' }),
    runId: z.string().meta({ example: 'run_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
  })
  .strict()
  .meta({ id: 'TriggerAccepted' });

/** Error statuses of a trigger call, and what each means. */
const TRIGGER_ERRORS: Record<number, string> = {
  400: 'Malformed JSON, a body that is not an object or holds what cannot be stored, a recordId that is not a string',
  401: 'The workflow requires a signature and X-Service-Signature is missing or wrong',
  404: 'No enabled incoming-webhook workflow has this id, or recordId is not a live record of its workspace',
  409: 'Another call with this Idempotency-Key was rolled back meanwhile: retry',
  413: 'The body is larger than 1 MiB',
  415: 'The body is not application/json',
  422: 'The Idempotency-Key was used with another body',
  429: "Over the workflow's limit; wait Retry-After seconds",
  500: 'Unexpected error; quote the requestId when reporting it',
  503: 'The database cannot be reached; retry after Retry-After seconds',
};

/**
 * The body of every error answer of a trigger call (docs/workflows.md, "The trigger endpoint"):
 * the REST error body's `error` (components.ts, errorSchema) beside `ok: false`.
 */
export function triggerErrorSchema(): Record<string, unknown> {
  const error = (errorSchema().properties as Record<string, unknown>).error;
  return {
    type: 'object',
    description:
      'Every error answer of a trigger URL: `ok: false` and the error body of the REST API (a code from the registry, a message for people and the request id).',
    required: ['ok', 'error'],
    additionalProperties: false,
    properties: { ok: { const: false }, error },
  };
}

/**
 * The rate-limit headers of a trigger call: set once the call is counted against the
 * workflow's limit, after the workflow, body and signature checks (the domain's
 * trigger-workflow.ts), so present on what comes after and never on what comes before.
 */
const RATE_LIMIT_HEADERS: [string, string][] = [
  ['RateLimit-Limit', 'Calls the workflow accepts per minute (its `rateLimitPerMinute`)'],
  ['RateLimit-Remaining', "Calls left in the workflow's current window"],
  ['RateLimit-Reset', 'Seconds until the window frees calls'],
];

/**
 * Per status: whether the call was counted (`always`), may have been (`sometimes`: a 400 or
 * 404 met after the count, such as a `recordId` that is not a string or not a live record,
 * and a failure of the service), or never was (the checks before the count).
 */
const COUNTED: Record<number, 'always' | 'sometimes' | 'never'> = {
  200: 'always',
  400: 'sometimes',
  401: 'never',
  404: 'sometimes',
  409: 'always',
  413: 'never',
  415: 'never',
  422: 'always',
  429: 'always',
  500: 'sometimes',
  503: 'sometimes',
};

function triggerHeaders(status: number): Record<string, unknown> {
  const counted = COUNTED[status] ?? 'sometimes';
  const headers: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'X-Request-Id') };
  if (counted !== 'never') {
    for (const [name, description] of RATE_LIMIT_HEADERS) {
      const said = counted === 'always' ? description : `${description}; present when the call was counted`;
      headers[name] = {
        description: said,
        required: counted === 'always',
        schema: { type: 'integer', minimum: 0 },
      };
    }
  }
  if (status === 429 || status === 503) headers['Retry-After'] = ref('headers', 'Retry-After');
  return headers;
}

/**
 * The trigger endpoint in the document: served by the Koa app beside the REST API (it takes
 * no API key), so it is declared here rather than by a procedure, with a server of its own.
 * The server's answers are checked against it by the OpenAPI tests.
 */
export function triggerPaths(baseUrl: string): ZodOpenApiPathsObject {
  return {
    [TRIGGER_OPERATION_PATH]: {
      servers: [
        {
          url: `${baseUrl.replace(/\/+$/, '')}${TRIGGER_SERVER_PATH}`,
          description: 'Trigger URLs, outside /api/v1',
        },
      ],
      post: {
        operationId: 'workflows-trigger',
        tags: ['Workflows'],
        summary: 'Start a workflow from its trigger URL',
        description:
          "The URL an INCOMING_WEBHOOK workflow shows as `trigger.url` (`<service root>/api/webhooks/trigger/{workflowId}`: this operation's own server followed by its path). Needs no API key: the workflow id in it is the secret, and a workflow with `requireSignature` also needs `X-Service-Signature`. Any JSON object is the run's `trigger.body`; `recordId` in it names the run's context record. Answers once the run is queued; the run itself happens on the background queue. `RateLimit-*` count calls against the workflow's own limit and come with every answer past the signature check.",
        security: [],
        requestParams: {
          path: z.object({ workflowId: z.string().meta({ description: 'The workflow id (wf_…)' }) }),
          header: z.object({
            'X-Service-Signature': z
              .string()
              .regex(/^sha256=[0-9a-f]{64}$/)
              .optional()
              .meta({
                description:
                  'sha256=<lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the workflow secret>; required when the workflow has requireSignature.',
              }),
            'Idempotency-Key': z.string().min(1).max(255).optional().meta({
              description:
                'The same key and body within 24 h answer the first runId again (Idempotent-Replayed: true) and queue nothing.',
            }),
          }),
        },
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: z
                .looseObject({
                  recordId: z.string().optional().meta({
                    description: "A live record of the workflow's workspace: the run's context record.",
                  }),
                })
                .meta({ description: 'Any JSON object (an empty body counts as {}).' }),
            },
          },
        },
        responses: {
          '200': {
            description: 'The run is queued',
            headers: { ...triggerHeaders(200), 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') },
            content: { 'application/json': { schema: triggerAcceptedOutput } },
          },
          ...Object.fromEntries(
            Object.entries(TRIGGER_ERRORS).map(([status, description]) => [
              status,
              {
                description,
                headers: triggerHeaders(Number(status)),
                content: { 'application/json': { schema: triggerErrorOf(Number(status)) } },
              },
            ]),
          ),
        },
      },
    },
  } as ZodOpenApiPathsObject;
}

/** The TriggerError schema narrowed to the codes of one status, as the REST error responses are. */
function triggerErrorOf(status: number) {
  const codes = Object.entries(errorCodeMappings)
    .filter(([, entry]) => entry.status === status)
    .map(([code]) => code);
  return {
    allOf: [
      ref('schemas', 'TriggerError'),
      { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
    ],
  };
}
