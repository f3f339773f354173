import { jobStatuses, jobTypes } from '@crm/db/schema';
import { z } from 'zod';
import { filterNode } from '../shared/list-filter.ts';
import { pagingInput } from '../shared/paging.ts';
import { actorOutput, idParam, instantOutput } from '../shared/schemas.ts';

/** The largest file an import takes, and the most rows (docs/jobs.md, "Limits"). */
export const JOB_FILE_LIMITS = { bytes: 1024 * 1024 * 1024, rows: 5_000_000 } as const;

/** The file formats of imports and exports, by their media types. */
export const jobFormats = { csv: 'text/csv', ndjson: 'application/x-ndjson' } as const;

/** Where a column of an import goes: a record's own value or a custom field's. */
const TARGET = /^(title|email|phone|ownerId|data\.[A-Za-z][A-Za-z0-9_]{0,62})$/;
const UPSERT_BY = /^(email|title|data\.[A-Za-z][A-Za-z0-9_]{0,62})$/;
const RELATION_KEY = /^data\.[A-Za-z][A-Za-z0-9_]{0,62}$/;

const target = z
  .string()
  .regex(TARGET, 'must be title, email, phone, ownerId or data.<key>')
  .meta({ description: '`title`, `email`, `phone`, `ownerId` or `data.<key>`' });

export const createImportJobInput = z.strictObject({
  folderId: z.string().max(200).meta({ description: 'The folder the records go to' }),
  format: z
    .enum(['csv', 'ndjson'])
    .meta({ description: 'The file’s format: CSV with a header row, or one JSON object a line' }),
  mapping: z
    .record(z.string().min(1).max(200), target)
    .refine((m) => Object.keys(m).length >= 1 && Object.keys(m).length <= 500, 'must map 1 to 500 columns')
    .refine((m) => Object.values(m).includes('title'), 'must map a column to title')
    .refine(
      (m) => new Set(Object.values(m)).size === Object.values(m).length,
      'maps two columns to one target',
    )
    .meta({
      description:
        'Each column of the file (a CSV header, or a key of the NDJSON objects) to where its value goes. Columns not named are left out; one must go to `title`.',
    }),
  upsertBy: z.string().regex(UPSERT_BY, 'must be email, title or data.<key>').optional().meta({
    description:
      'Update the live record of the folder whose value this is instead of creating one: `email` (case-insensitive), `title` or `data.<key>`.',
  }),
  relations: z
    .record(z.string().regex(RELATION_KEY, 'must be data.<key>'), z.enum(['id', 'title', 'email']))
    .optional()
    .meta({
      description:
        'How a RELATION column names its records: by `id` (the default), `title` or `email`. A MANY relation’s names are separated by `;`.',
    }),
  notify: z.boolean().optional().meta({
    description:
      '`false`: the job’s changes send no webhooks and start no event-triggered workflows; history and the event feed keep them. Default `true`.',
  }),
  dryRun: z
    .boolean()
    .optional()
    .meta({ description: '`true`: every row is checked and its result written, and nothing is kept.' }),
});

export const createExportJobInput = z.strictObject({
  folderId: z.string().max(200).meta({ description: 'The folder whose records are exported' }),
  filter: filterNode.optional().meta({ description: 'As `POST /records/query`’s `filter`' }),
  q: z.string().max(200).optional().meta({ description: 'A text search, as `POST /records/query`’s `q`' }),
  sort: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'As `POST /records/query`’s `sort` (default `-createdAt`)' }),
  fields: z
    .array(z.string().regex(TARGET, 'must be title, email, phone, ownerId or data.<key>'))
    .max(500)
    .optional()
    .meta({ description: 'The custom fields to write (`data.<key>`); default every field of the folder' }),
  format: z.enum(['csv', 'ndjson']),
});

export const createUpdateJobInput = z.strictObject({
  folderId: z.string().max(200).meta({ description: 'The folder whose records change' }),
  filter: filterNode.optional().meta({ description: 'As `POST /records/query`’s `filter`' }),
  q: z.string().max(200).optional().meta({ description: 'A text search, as `POST /records/query`’s `q`' }),
  set: z
    .strictObject({
      title: z.string().max(500).optional(),
      ownerId: z.string().max(200).nullable().optional(),
      data: z.record(z.string(), z.unknown()).optional().meta({
        description:
          'Merged into each record’s values as `PATCH /records/{id}` merges them (null removes a key)',
      }),
    })
    .optional()
    .meta({
      description:
        'What every matching record gets, as a `PATCH /records/{id}` body. Give `set` or `trash`, one of the two.',
    }),
  trash: z
    .literal(true)
    .optional()
    .meta({ description: '`true`: move every matching record to Trash; instead of `set`, not with it' }),
  dryRun: z
    .boolean()
    .optional()
    .meta({ description: '`true`: answer 200 with how many records match now, and change nothing' }),
});

export const matchedOutput = z
  .object({ data: z.object({ matched: z.number().int().meta({ description: 'Records that match now' }) }) })
  .meta({ id: 'JobDryRun' });

export const jobIdInput = z.strictObject({ id: idParam('Job id (job_…)') });

export const findJobsInput = z.strictObject({
  type: z.enum(jobTypes).optional().meta({ description: 'Only jobs of this type' }),
  status: z.enum(jobStatuses).optional().meta({ description: 'Only jobs in this status' }),
  ...pagingInput,
});

const progressOutput = z
  .object({
    rowsRead: z.number().int().meta({ description: 'Rows (or records) done so far' }),
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    refused: z.number().int(),
    total: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Rows of the file, or records the job covers; null until known' }),
  })
  .meta({ id: 'JobProgress' });

export const jobOutput = z
  .object({
    id: z.string().meta({ example: 'job_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    type: z.enum(jobTypes),
    status: z.enum(jobStatuses),
    folderId: z.string().nullable(),
    format: z.enum(['csv', 'ndjson']).nullable(),
    progress: progressOutput,
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'Why the job FAILED; null otherwise' }),
    actor: actorOutput.meta({ description: 'Who made the job' }),
    uploadUrl: z
      .string()
      .nullable()
      .meta({ description: 'Where to PUT the file, while the job is AWAITING_FILE (a path under /api/v1)' }),
    fileUrl: z
      .string()
      .nullable()
      .meta({ description: 'Where to GET an export’s file once it SUCCEEDED (a path under /api/v1)' }),
    expiresAt: instantOutput()
      .nullable()
      .meta({ description: 'When an export’s file stops being served (410 after)' }),
    createdAt: instantOutput(),
    startedAt: instantOutput().nullable(),
    finishedAt: instantOutput().nullable(),
  })
  .meta({ id: 'Job' });
export type JobOutput = z.output<typeof jobOutput>;

/** A file as a route receives it: its media type and its bytes as they arrive. */
export interface IncomingFile {
  mediaType: string;
  body: AsyncIterable<Uint8Array>;
  /** Its length as the request declared it (Content-Length), when it did. */
  declaredBytes?: number;
}

export const receiveJobFileInput = z.strictObject({
  id: idParam('Job id (job_…)'),
  file: z
    .custom<IncomingFile>(
      (value) => typeof value === 'object' && value !== null && 'body' in value && 'mediaType' in value,
      'must be the request body',
    )
    .meta({ description: 'The file, as the raw request body', type: 'string', format: 'binary' }),
});
