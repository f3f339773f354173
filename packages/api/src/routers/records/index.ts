import {
  createRecord,
  createRecordInput,
  envelope,
  exportRecords,
  filteredListEnvelope,
  findRecords,
  findRecordsInput,
  findTimeline,
  findTimelineInput,
  getRecord,
  getRecordInput,
  noteRecordsCreated,
  queryRecords,
  queryRecordsInput,
  recordIdInput,
  recordOutput,
  restoreRecord,
  timelineOutput,
  trashRecord,
  updateRecord,
  updateRecordInput,
} from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';
import { historyProcedures } from '../history.ts';
import { recordsBatchProcedures } from './batch.ts';
import { recordLinkProcedures } from './links.ts';

const tags = ['Records'];
const one = envelope(recordOutput);
const list = filteredListEnvelope(recordOutput);

export const recordsRouter = router({
  // First, so that /records/batch is not taken for /records/{id} (see batch.ts).
  ...recordsBatchProcedures,
  ...recordLinkProcedures,
  ...historyProcedures('record', tags),
  export: authedProcedure
    .meta(
      restRoute({
        scope: 'records:read',
        openapi: {
          method: 'GET',
          path: '/records/export',
          tags,
          summary: 'Export records',
          description:
            'The list of `GET /records` (the same filters, sort, search, paging and `expand`), for a bulk export: the first page of each export is in the audit log, with what was exported. The web app’s CSV export reads through it.',
        },
        errors: [404],
      }),
    )
    .input(findRecordsInput)
    .concat(declaredOutput(list))
    .query(({ ctx, input }) => exportRecords(ctx.db, ctx.actor, input)),

  list: authedProcedure
    .meta(
      restRoute({
        scope: 'records:read',
        openapi: {
          method: 'GET',
          path: '/records',
          tags,
          summary: 'List records',
          description:
            'Newest first, or as `sort` says. Filter by folder, by text (`search` or `q`), by `updatedSince`, and by any field with `filter[<field>]` / `filter[<field>][<op>]` (ANDed), across a relation too (`filter[company]=rec_…`, `filter[company.data.tier]=Gold`); `trashed=true` lists the Trash; `count=true` adds `meta.total`; `expand=<key>` adds the records ONE relation fields link to. Page with `page` or `cursor`. `sort=-updatedAt&updatedSince=…` polls newest change first.',
        },
        errors: [404],
      }),
    )
    .input(findRecordsInput)
    .concat(declaredOutput(list))
    .query(({ ctx, input }) => findRecords(ctx.db, ctx.actor, input)),

  // A read sent as POST, so the filter can nest.
  query: authedProcedure
    .meta(
      restRoute({
        scope: 'records:read',
        openapi: {
          method: 'POST',
          path: '/records/query',
          tags,
          summary: 'Query records with a nested filter',
          description:
            'The list with its parameters as JSON and a filter of `and`, `or` and `not`: `{ "filter": { "or": [ { "field": "data.lifecycle", "op": "eq", "value": "Lead" }, … ] }, "sort": "-updatedAt", "pageSize": 50, "cursor": … }`. Answers like `GET /records`. Needs the read scope only.',
        },
        errors: [404],
      }),
    )
    .input(queryRecordsInput)
    .concat(declaredOutput(list))
    .query(({ ctx, input }) => queryRecords(ctx.db, ctx.actor, input)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'records:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}',
          tags,
          summary: 'Get a record',
          description:
            'The record with its custom values; `expand=<key>[,<key>]` adds the records its ONE relation fields link to under `expanded`. A record in Trash is not found. Carries an ETag; If-None-Match answers 304.',
        },
        errors: [404],
      }),
    )
    .input(getRecordInput)
    .concat(declaredOutput(one))
    .query(async ({ ctx, input }) => ({ data: await getRecord(ctx.db, ctx.actor, input) })),

  timeline: authedProcedure
    .meta(
      restRoute({
        scope: 'records:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/timeline',
          tags,
          summary: "A record's timeline",
          description:
            'What happened to the record, newest first, one entry per thing: created, changed (each field from what to what), moved to Trash and restored, comments, calls, its tasks created and completed, stage moves of deals linked to it, and automation runs for it. `kind` says which; the key named after it holds the details, the others are null. Page with `page` or `cursor`. A record in Trash is not found. Changes, tasks, stage moves and runs are kept 30 days, comments and calls as long as they exist.',
        },
        errors: [404],
      }),
    )
    .input(findTimelineInput)
    .concat(declaredOutput(timelineOutput))
    .query(({ ctx, input }) => findTimeline(ctx.db, ctx.actor, input)),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'records:write',
        openapi: {
          method: 'POST',
          path: '/records',
          tags,
          summary: 'Create a record (or upsert by email)',
          description:
            'Answers 201 with the new record. With `?upsert=email` the live record of the folder with the same email is updated instead, and the answer is 200.',
        },
        successStatus: 201,
        location: '/records/{id}',
        alternativeSuccess: { status: 200, description: 'Upserted: an existing record was updated' },
        queryParams: ['upsert'],
      }),
    )
    .input(createRecordInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => {
      const { record, created } = await createRecord(ctx.db, ctx.actor, input);
      if (!created) ctx.response.status = 200;
      else void noteRecordsCreated(ctx.db, ctx.actor.workspaceId, 1);
      return { data: record };
    }),

  update: authedProcedure
    .meta(
      restRoute({
        scope: 'records:write',
        openapi: {
          method: 'PATCH',
          path: '/records/{id}',
          tags,
          summary: 'Update a record',
          description:
            'Fields not given stay. `data` merges: keys given replace, a key given as null is removed.',
        },
        errors: [404],
      }),
    )
    .input(updateRecordInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await updateRecord(ctx.db, ctx.actor, input) })),

  trash: authedProcedure
    .meta(
      restRoute({
        scope: 'records:delete',
        openapi: {
          method: 'DELETE',
          path: '/records/{id}',
          tags,
          summary: 'Move a record to Trash',
          description:
            'Moves the record to Trash and answers it with `trashedAt` set; Trash is purged after 30 days. If-Match makes it conditional.',
        },
        errors: [404],
      }),
    )
    .input(recordIdInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await trashRecord(ctx.db, ctx.actor, input.id) })),

  restore: authedProcedure
    .meta(
      restRoute({
        scope: 'records:delete',
        openapi: {
          method: 'POST',
          path: '/records/{id}/restore',
          tags,
          summary: 'Restore a record from Trash',
          description:
            'Brings the record back from Trash. Restoring a live record changes nothing and answers 200, so it is safe to retry.',
        },
        errors: [404],
      }),
    )
    .input(recordIdInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await restoreRecord(ctx.db, ctx.actor, input.id) })),
});
