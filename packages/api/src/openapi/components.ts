import { apiErrorCodes, errorCodeMappings } from '../errors.ts';

type Json = Record<string, unknown>;

/** Name of the shared response component of each error status. */
export const ERROR_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'IdempotencyKeyReused',
  429: 'RateLimited',
  500: 'Internal',
  503: 'Unavailable',
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The body or query failed validation (details name each field)',
  401: 'No, unknown, revoked or expired API key',
  403: 'The API key lacks the scope for this call',
  404: 'No such resource in this workspace',
  409: 'A request with the same Idempotency-Key is still running; or a conflict the operation names (a field at its 10,000 links, a RELATION field that still has links)',
  410: 'What was asked for was kept for a while and is gone (an export’s file after 24 hours)',
  412: 'If-Match names a version that is no longer current; read the resource again',
  413: 'The body is larger than 1 MiB (a job’s file: 1 GiB)',
  415: 'The body is not application/json (a job’s file: not the job’s format)',
  422: 'The Idempotency-Key was used with another body',
  429: 'Over the rate limit; wait Retry-After seconds',
  500: 'Unexpected error; quote the requestId when reporting it',
  503: 'The database cannot be reached; retry after Retry-After seconds',
};

/** Descriptions of the operation tags; a tag missing here shows up as a lint warning. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Records: 'Records kept in folders, with custom field values. Deleting moves a record to Trash.',
  Folders: 'Folders hold records and define their custom fields (key, label, type, options).',
  Relations:
    'Links between records through RELATION fields (a ONE value in `data`, MANY sides as links), with labels; the records a record links to; the deals and tasks linked to a record.',
  Comments: 'Comments attached to a record, oldest first.',
  Calls: 'Call logs attached to a record, oldest first.',
  Pipelines: 'Sales pipelines and their ordered stages.',
  Jobs: 'Imports, exports and changes to every record a filter matches, run by the service a chunk at a time (docs/jobs.md).',
  Deals: 'Deals sitting in a pipeline stage.',
  Tasks: 'Tasks, optionally linked to a record; OPEN or DONE.',
  Webhooks: 'Outgoing webhook subscriptions and their deliveries.',
  Events: 'The event feed: what happened in the workspace, oldest first, kept 30 days.',
  Workflows: 'Automations (workflows), their triggers, actions and runs.',
  Workspace: 'The workspace of the API key, its members and keys.',
  'Audit log':
    'What an admin answers for (keys, webhooks, workflows, members), newest first, with who did it and through what.',
};

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The gate's headers (rest-route.ts), which error answers after the gate carry too. */
const GATE_HEADER_REFS = {
  'X-Request-Id': ref('headers', 'X-Request-Id'),
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
};

/**
 * The header components only error answers use; the others are generated from the routes'
 * declared headers (rest-route.ts).
 */
export function errorHeaderComponents(): Record<string, Json> {
  return {
    'Retry-After': {
      description: 'Whole seconds to wait before retrying (at least 1)',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    },
    'WWW-Authenticate': {
      description: 'The authentication scheme to use: `Bearer`',
      required: true,
      schema: { type: 'string', pattern: '^Bearer' },
    },
  };
}

/** The error body every error answer has (docs/api.md, "Requests and responses"). */
export function errorSchema(): Json {
  return {
    type: 'object',
    description: 'Every error answer: a code from the registry, a message for people and the request id.',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'requestId'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: [...apiErrorCodes] },
          message: { type: 'string' },
          details: {
            type: 'array',
            description: 'Present for validation errors: one entry per offending field.',
            items: {
              type: 'object',
              required: ['path', 'message'],
              additionalProperties: false,
              properties: { path: { type: 'string', examples: ['data.stage'] }, message: { type: 'string' } },
            },
          },
          requestId: { type: 'string', minLength: 1 },
        },
      },
    },
  };
}

/**
 * Statuses only answered once the key was accepted and the request counted, so they carry the
 * rate-limit headers too; 401 comes before that, and 500/503 may.
 */
const AFTER_GATE = [400, 403, 404, 409, 413, 415, 422, 429];

/** The shared response of one error status: the Error schema narrowed to that status's codes. */
export function errorResponse(status: number): Json {
  const codes = Object.entries(errorCodeMappings)
    .filter(([, entry]) => entry.status === status)
    .map(([code]) => code);
  const headers: Record<string, unknown> = AFTER_GATE.includes(status)
    ? { ...GATE_HEADER_REFS }
    : { 'X-Request-Id': ref('headers', 'X-Request-Id') };
  if (status === 429 || status === 503) headers['Retry-After'] = ref('headers', 'Retry-After');
  if (status === 401) headers['WWW-Authenticate'] = ref('headers', 'WWW-Authenticate');
  return {
    description: ERROR_DESCRIPTIONS[status],
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            ref('schemas', 'Error'),
            {
              type: 'object',
              properties: { error: { type: 'object', properties: { code: { enum: codes } } } },
            },
          ],
        },
      },
    },
  };
}
