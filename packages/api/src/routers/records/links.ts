import {
  dealOutput,
  envelope,
  filteredListEnvelope,
  findRecordDeals,
  findRecordDealsInput,
  findRecordTasks,
  findRecordTasksInput,
  findRelated,
  findRelatedInput,
  getLink,
  linkedRecordOutput,
  linkOfOwnerOutput,
  linkOutput,
  linkPathInput,
  linkRecord,
  linkRecordInput,
  linkRecordsInBatch,
  linkRecordsInput,
  taskOutput,
  unlinkedOutput,
  unlinkRecord,
  unlinkRecordsInBatch,
  unlinkRecordsInput,
} from '@crm/domain';
import { batchAnswer, batchEnvelope } from '../../batch-answer.ts';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput } from '../../trpc.ts';

const tags = ['Relations'];
const answered =
  'Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are applied in order (a later item sees what an earlier one linked); one that fails writes nothing. At most 100 items; counts as one request against the rate limit.';

/**
 * Links between records through RELATION fields, the records a record links to, and the deals
 * and tasks linked to a record (docs/api.md, "Relations"). The batch routes come first, like
 * the records' own: `/records/links/batch` must not be taken for `/records/{id}/…`.
 */
export const recordLinkProcedures = {
  linkBatch: authedProcedure
    .meta(
      restRoute({
        scope: 'records:write',
        openapi: {
          method: 'POST',
          path: '/records/links/batch',
          tags,
          summary: 'Link records in a batch',
          description: `Each item \`{ from, field, to, label? }\` is linked as \`POST /records/{from}/links\` would link it (201 new, 200 already linked). ${answered}`,
        },
      }),
    )
    .input(linkRecordsInput)
    .concat(declaredOutput(batchEnvelope(linkOutput).meta({ id: 'LinkBatchAnswer' })))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await linkRecordsInBatch(ctx.db, ctx.actor, input), ctx.requestId),
    ),

  unlinkBatch: authedProcedure
    .meta(
      restRoute({
        scope: 'records:write',
        openapi: {
          method: 'POST',
          path: '/records/links/batch/delete',
          tags,
          summary: 'Unlink records in a batch',
          description: `Each item \`{ from, field, to }\` is unlinked as \`DELETE /records/{from}/links/{field}/{to}\` would unlink it (200; no such link: 404). ${answered}`,
        },
      }),
    )
    .input(unlinkRecordsInput)
    .concat(declaredOutput(batchEnvelope(unlinkedOutput).meta({ id: 'UnlinkBatchAnswer' })))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await unlinkRecordsInBatch(ctx.db, ctx.actor, input), ctx.requestId),
    ),

  link: authedProcedure
    .meta(
      restRoute({
        scope: 'records:write',
        openapi: {
          method: 'POST',
          path: '/records/{id}/links',
          tags,
          summary: 'Link a record to another',
          description:
            'Links the record through one of its RELATION fields to a live record of the field’s folder (`to`: an id, or `{ "email" }` / `{ "title" }` naming one), with one of the field’s `labels` if it has them. Answers 201 with the link, or 200 with the link that was there (its label changed when another is given). On a ONE side the new link replaces the previous one, and the ONE value in `data` follows. A field holds at most 10,000 links (409 beyond).',
        },
        successStatus: 201,
        location: '/records/{from}/links/{field}/{to}',
        alternativeSuccess: { status: 200, description: 'Already linked: the existing link' },
        errors: [404],
      }),
    )
    .input(linkRecordInput)
    .concat(declaredOutput(envelope(linkOutput)))
    .mutation(async ({ ctx, input }) => {
      const { created, data } = await linkRecord(ctx.db, ctx.actor, input);
      ctx.response.status = created ? 201 : 200;
      return { data };
    }),

  getLink: authedProcedure
    .meta(
      restRoute({
        scope: 'records:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/links/{field}/{to}',
          tags,
          summary: 'Get a link',
          description:
            'The link between the record and `to` through `field`, with its label. A link to or from a record in Trash is not found.',
        },
        errors: [404],
      }),
    )
    .input(linkPathInput)
    .concat(declaredOutput(envelope(linkOutput)))
    .query(async ({ ctx, input }) => ({ data: await getLink(ctx.db, ctx.actor, input) })),

  unlink: authedProcedure
    .meta(
      restRoute({
        scope: 'records:write',
        openapi: {
          method: 'DELETE',
          path: '/records/{id}/links/{field}/{to}',
          tags,
          summary: 'Unlink two records',
          description:
            'Removes the link (from both sides of a pair of fields; a ONE value in `data` is cleared). No such link between live records: 404. If-Match (the link’s ETag) makes it conditional.',
        },
        errors: [404],
      }),
    )
    .input(linkPathInput)
    .concat(declaredOutput(envelope(unlinkedOutput)))
    .mutation(async ({ ctx, input }) => ({ data: await unlinkRecord(ctx.db, ctx.actor, input) })),

  related: authedProcedure
    .meta(
      restRoute({
        scope: 'records:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/related/{field}',
          tags,
          summary: 'List the records a record links to',
          description:
            'The live records linked through the RELATION field, newest first unless sorted, with the same `filter`, `sort`, `q`, `updatedSince`, `count`, `expand` and paging as `GET /records` (the folder is the field’s). Each item adds `link: { label, createdAt }`. A record in Trash, or a field that is not a RELATION field of its folder, is not found.',
        },
        resource: 'list',
        errors: [404],
      }),
    )
    .input(findRelatedInput)
    .concat(declaredOutput(filteredListEnvelope(linkedRecordOutput)))
    .query(({ ctx, input }) => findRelated(ctx.db, ctx.actor, input)),

  deals: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/deals',
          tags,
          summary: 'List the deals linked to a record',
          description:
            'Deals whose primary record it is or that link it as a participant, newest first unless sorted, with the filters, sorts and paging of `GET /deals` (`pipelineId` optional); each adds `link: { label, primary, createdAt }`. A record in Trash is not found.',
        },
        errors: [404],
      }),
    )
    .input(findRecordDealsInput)
    .concat(
      declaredOutput(
        filteredListEnvelope(dealOutput.extend({ link: linkOfOwnerOutput }).meta({ id: 'LinkedDeal' })),
      ),
    )
    .query(({ ctx, input }) => findRecordDeals(ctx.db, ctx.actor, input)),

  tasks: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:read',
        openapi: {
          method: 'GET',
          path: '/records/{id}/tasks',
          tags,
          summary: 'List the tasks linked to a record',
          description:
            'Tasks whose primary record it is or that link it, newest first unless sorted, with the filters, sorts and paging of `GET /tasks`; each adds `link: { label, primary, createdAt }`. A record in Trash is not found.',
        },
        errors: [404],
      }),
    )
    .input(findRecordTasksInput)
    .concat(
      declaredOutput(
        filteredListEnvelope(taskOutput.extend({ link: linkOfOwnerOutput }).meta({ id: 'LinkedTask' })),
      ),
    )
    .query(({ ctx, input }) => findRecordTasks(ctx.db, ctx.actor, input)),
};
