import {
  addStage,
  addStageInput,
  createPipeline,
  createPipelineInput,
  envelope,
  findPipelines,
  findPipelinesInput,
  getPipeline,
  listEnvelope,
  pipelineIdInput,
  pipelineOutput,
  pipelineSummaryOutput,
  removeStage,
  removeStageInput,
  renamePipeline,
  renamePipelineInput,
  renameStage,
  renameStageInput,
  reorderStages,
  reorderStagesInput,
  summarizePipeline,
} from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Pipelines'];
const one = envelope(pipelineOutput);

export const pipelinesRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'pipelines:read',
        openapi: {
          method: 'GET',
          path: '/pipelines',
          tags,
          summary: 'List pipelines with their stages',
          description:
            "The workspace's pipelines, newest first, with their stages in order. Page with `page` or `cursor`.",
        },
      }),
    )
    .input(findPipelinesInput)
    .concat(declaredOutput(listEnvelope(pipelineOutput)))
    .query(({ ctx, input }) => findPipelines(ctx.db, ctx.actor, input)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'pipelines:read',
        openapi: {
          method: 'GET',
          path: '/pipelines/{id}',
          tags,
          summary: 'Get a pipeline with its stages in order',
          description: 'The pipeline and its stages in order. Carries an ETag; If-None-Match answers 304.',
        },
        errors: [404],
      }),
    )
    .input(pipelineIdInput)
    .concat(declaredOutput(one))
    .query(async ({ ctx, input }) => ({ data: await getPipeline(ctx.db, ctx.actor, input.id) })),

  summary: authedProcedure
    .meta(
      restRoute({
        scope: 'deals:read',
        openapi: {
          method: 'GET',
          path: '/pipelines/{id}/summary',
          tags,
          summary: 'Deal counts and amounts by stage, per currency',
          description:
            'Over all deals of the pipeline: for each stage (in order, also those without deals) and for the whole pipeline, how many deals there are and the sum of their amounts in each currency. Amounts in different currencies are never added together. Sums are exact to the cent.',
        },
        errors: [404],
        resource: 'volatile',
      }),
    )
    .input(pipelineIdInput)
    .concat(declaredOutput(envelope(pipelineSummaryOutput)))
    .query(async ({ ctx, input }) => ({ data: await summarizePipeline(ctx.db, ctx.actor, input.id) })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'pipelines:write',
        openapi: {
          method: 'POST',
          path: '/pipelines',
          tags,
          summary: 'Create a pipeline',
          description: 'Creates a pipeline with its stages in order (at most 50). Answers 201 with Location.',
        },
        successStatus: 201,
        location: '/pipelines/{id}',
      }),
    )
    .input(createPipelineInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await createPipeline(ctx.db, ctx.actor, input) })),

  rename: authedProcedure
    .meta(
      restRoute({
        scope: 'pipelines:write',
        openapi: {
          method: 'PATCH',
          path: '/pipelines/{id}',
          tags,
          summary: 'Rename a pipeline',
          description: 'Renames the pipeline. If-Match makes it conditional.',
        },
        errors: [404],
      }),
    )
    .input(renamePipelineInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await renamePipeline(ctx.db, ctx.actor, input) })),

  addStage: authedProcedure
    .meta(
      restRoute({
        scope: 'pipelines:write',
        openapi: {
          method: 'POST',
          path: '/pipelines/{id}/stages',
          tags,
          summary: 'Add a stage (last, or at a position)',
          description:
            'Adds a stage at the end (or at `position`) and answers 201 with the pipeline; `Location` names the pipeline, which holds the stage.',
        },
        successStatus: 201,
        location: '/pipelines/{id}',
        errors: [404],
      }),
    )
    .input(addStageInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await addStage(ctx.db, ctx.actor, input) })),

  renameStage: authedProcedure
    .meta(
      restRoute({
        scope: 'pipelines:write',
        openapi: {
          method: 'PATCH',
          path: '/pipelines/{id}/stages/{stageId}',
          tags,
          summary: 'Rename a stage',
          description:
            "Renames or moves a stage; positions stay gap-free. If-Match (the pipeline's ETag) makes it conditional.",
        },
        errors: [404],
      }),
    )
    .input(renameStageInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await renameStage(ctx.db, ctx.actor, input) })),

  reorderStages: authedProcedure
    .meta(
      restRoute({
        scope: 'pipelines:write',
        openapi: {
          method: 'POST',
          path: '/pipelines/{id}/stages/reorder',
          tags,
          summary: 'Reorder the stages',
          description: '`stageIds` lists every stage of the pipeline once, in the new order.',
        },
        errors: [404],
      }),
    )
    .input(reorderStagesInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await reorderStages(ctx.db, ctx.actor, input) })),

  removeStage: authedProcedure
    .meta(
      restRoute({
        scope: 'pipelines:delete',
        openapi: {
          method: 'DELETE',
          path: '/pipelines/{id}/stages/{stageId}',
          tags,
          summary: 'Remove a stage',
          description:
            'A stage that holds deals is removed only with `moveDealsTo`, another stage of the pipeline that takes its deals (400 otherwise).',
        },
        errors: [404],
      }),
    )
    .input(removeStageInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await removeStage(ctx.db, ctx.actor, input) })),
});
