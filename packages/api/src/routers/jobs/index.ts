import {
  cancelJob,
  createExportJob,
  createExportJobInput,
  createImportJob,
  createImportJobInput,
  createUpdateJob,
  createUpdateJobInput,
  envelope,
  findJobs,
  findJobsInput,
  getJob,
  jobFormats,
  jobIdInput,
  jobOutput,
  listEnvelope,
  matchedOutput,
  type OutgoingFile,
  readJobFile,
  readJobResults,
  receiveJobFile,
  receiveJobFileInput,
  revertJob,
} from '@crm/domain';
import { z } from 'zod';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Jobs'];
const one = envelope(jobOutput);
const MEDIA_TYPES = Object.values(jobFormats);

/** A file answer: the REST layer streams it (ApiMeta `file.answers`). */
const fileAnswer = z.object({
  file: z.custom<OutgoingFile>().meta({ description: 'The file, streamed' }),
});

export const jobsRouter = router({
  createImport: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:write',
        openapi: {
          method: 'POST',
          path: '/jobs/imports',
          tags,
          summary: 'Start an import',
          description:
            'Makes an import job AWAITING_FILE: PUT the file to its `uploadUrl`, then follow its progress with `GET /jobs/{id}`. Checks the folder and every field the mapping names first. Needs `records:write` too (docs/jobs.md, "Imports").',
        },
        successStatus: 201,
        location: '/jobs/{id}',
        errors: [404],
      }),
    )
    .input(createImportJobInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await createImportJob(ctx.db, ctx.actor, input) })),

  createExport: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:write',
        openapi: {
          method: 'POST',
          path: '/jobs/exports',
          tags,
          summary: 'Start an export',
          description:
            'Makes an export job QUEUED: every record of the folder that `filter` and `q` match, in `sort`’s order (as `POST /records/query` takes them), no cap. Once it SUCCEEDED, GET its `fileUrl` (kept 24 hours). Needs `records:read` too (docs/jobs.md, "Exports").',
        },
        successStatus: 201,
        location: '/jobs/{id}',
        errors: [404],
      }),
    )
    .input(createExportJobInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await createExportJob(ctx.db, ctx.actor, input) })),

  createUpdate: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:write',
        openapi: {
          method: 'POST',
          path: '/jobs/updates',
          tags,
          summary: 'Change every record a filter matches',
          description:
            'With `dryRun: true`, answers 200 `{ "data": { "matched" } }`: how many records match now. Otherwise makes an update job QUEUED (201) that applies `set` (a `PATCH /records/{id}` body), or moves to Trash (`trash: true`), every record of the folder that matched when it started. Needs `records:write` too (docs/jobs.md, "Updates").',
        },
        successStatus: 201,
        alternativeSuccess: { status: 200, description: 'A dry run: how many records match now' },
        location: '/jobs/{id}',
        errors: [404],
      }),
    )
    .input(createUpdateJobInput)
    .concat(declaredOutput(z.union([one, matchedOutput])))
    .mutation(async ({ ctx, input }) => {
      const made = await createUpdateJob(ctx.db, ctx.actor, input);
      if ('matched' in made) {
        ctx.response.status = 200;
        return { data: made };
      }
      return { data: made };
    }),

  revert: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:write',
        openapi: {
          method: 'POST',
          path: '/jobs/{id}/revert',
          tags,
          summary: 'Revert an update job',
          description:
            'Makes a new update job (201) that sets each field the job changed back to what it was, on every record where that field has not changed since, and takes back out of Trash what it moved there. Its results say, per record, what was set back (`setBack`) and what was left because it changed (`left`). 409 for a job that is not an ended update.',
        },
        successStatus: 201,
        location: '/jobs/{id}',
        errors: [404, 409],
      }),
    )
    .input(jobIdInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await revertJob(ctx.db, ctx.actor, input) })),

  putFile: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:write',
        successStatus: 202,
        file: { accepts: MEDIA_TYPES },
        openapi: {
          method: 'PUT',
          path: '/jobs/{id}/file',
          tags,
          summary: 'Upload an import’s file',
          description:
            'The file as the raw body, `text/csv` (RFC 4180, UTF-8 with or without a BOM, a header row, comma or semicolon) or `application/x-ndjson` as the job’s `format` says; up to 1 GiB and 5,000,000 rows. Read as it arrives and checked: a file that is not UTF-8, lacks a mapped column or has a row wider than its header is refused (400, naming the row), and nothing is kept. Answers 202 with the job QUEUED (docs/jobs.md, "Files").',
        },
        errors: [404, 409, 413, 415],
      }),
    )
    .input(receiveJobFileInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await receiveJobFile(ctx.db, ctx.actor, input) })),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:read',
        openapi: {
          method: 'GET',
          path: '/jobs/{id}',
          tags,
          summary: 'Get a job',
          description: 'A job with its status and progress (docs/jobs.md, "A job").',
        },
        errors: [404],
      }),
    )
    .input(jobIdInput)
    .concat(declaredOutput(one))
    .query(async ({ ctx, input }) => ({ data: await getJob(ctx.db, ctx.actor, input) })),

  list: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:read',
        openapi: {
          method: 'GET',
          path: '/jobs',
          tags,
          summary: 'List jobs',
          description: 'The workspace’s jobs, newest first, by `type` and `status`.',
        },
      }),
    )
    .input(findJobsInput)
    .concat(declaredOutput(listEnvelope(jobOutput)))
    .query(async ({ ctx, input }) => findJobs(ctx.db, ctx.actor, input)),

  cancel: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:write',
        openapi: {
          method: 'POST',
          path: '/jobs/{id}/cancel',
          tags,
          summary: 'Cancel a job',
          description:
            'Ends a job that has not ended as CANCELLED. What it wrote stays; its progress says how far it got. 409 when it has ended.',
        },
        errors: [404, 409],
      }),
    )
    .input(jobIdInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await cancelJob(ctx.db, ctx.actor, input) })),

  results: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:read',
        resource: 'volatile',
        file: { answers: [jobFormats.ndjson] },
        openapi: {
          method: 'GET',
          path: '/jobs/{id}/results',
          tags,
          summary: 'Stream a job’s results',
          description:
            'NDJSON, one line per row done so far, in row order: `{ "row", "status": "created" | "updated" | "unchanged" | "refused", "recordId", "errors": [{ "path", "message" }] }` (docs/jobs.md, "Results").',
        },
        errors: [404],
      }),
    )
    .input(jobIdInput)
    .concat(declaredOutput(fileAnswer))
    .query(async ({ ctx, input }) => ({ file: await readJobResults(ctx.db, ctx.actor, input) })),

  file: authedProcedure
    .meta(
      restRoute({
        scope: 'jobs:read',
        resource: 'volatile',
        file: { answers: MEDIA_TYPES },
        openapi: {
          method: 'GET',
          path: '/jobs/{id}/file',
          tags,
          summary: 'Download an export’s file',
          description:
            'The file of an export that SUCCEEDED, as its `format` says, kept 24 hours (410 after). 409 before it has succeeded.',
        },
        errors: [404, 409, 410],
      }),
    )
    .input(jobIdInput)
    .concat(declaredOutput(fileAnswer))
    .query(async ({ ctx, input }) => ({ file: await readJobFile(ctx.db, ctx.actor, input) })),
});
