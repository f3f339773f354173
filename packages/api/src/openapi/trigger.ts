import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorSchema, ref } from './components.ts';

/** Where the trigger endpoint lives, below the service's root rather than /api/v1. */
export const TRIGGER_PATH_TEMPLATE = '/api/webhooks/trigger/{workflowId}';

/** What a call to a trigger URL answers once its run is queued (docs/workflows.md, "The trigger endpoint"). */
export const triggerAcceptedOutput = z
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
 * The trigger endpoint in the document: served by the Koa app beside the REST API (it takes
 * no API key), so it is declared here rather than by a procedure, with a server of its own.
 * The server's answers are checked against it by the OpenAPI tests.
 */
export function triggerPaths(baseUrl: string): ZodOpenApiPathsObject {
  const error = (errorSchema().properties as Record<string, unknown>).error;
  const errorBody = {
    type: 'object',
    required: ['ok', 'error'],
    additionalProperties: false,
    properties: { ok: { const: false }, error },
  } as const;
  const headers = (status: number) => ({
    'X-Request-Id': ref('headers', 'X-Request-Id'),
    ...(status === 429 || status === 503 ? { 'Retry-After': ref('headers', 'Retry-After') } : {}),
  });
  return {
    [TRIGGER_PATH_TEMPLATE]: {
      servers: [{ url: baseUrl.replace(/\/$/, '') || '/', description: 'The service root' }],
      post: {
        operationId: 'triggerWorkflow',
        tags: ['Workflows'],
        summary: 'Start a workflow from its trigger URL',
        description:
          "The URL an INCOMING_WEBHOOK workflow shows as `trigger.url`. Needs no API key: the workflow id in it is the secret, and a workflow with `requireSignature` also needs `X-Service-Signature`. Any JSON object is the run's `trigger.body`; `recordId` in it names the run's context record. Answers once the run is queued; the run itself happens on the background queue.",
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
            headers: { ...headers(200), 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') },
            content: { 'application/json': { schema: triggerAcceptedOutput } },
          },
          ...Object.fromEntries(
            Object.entries(TRIGGER_ERRORS).map(([status, description]) => [
              status,
              {
                description,
                headers: headers(Number(status)),
                content: { 'application/json': { schema: errorBody } },
              },
            ]),
          ),
        },
      },
    },
  } as ZodOpenApiPathsObject;
}
