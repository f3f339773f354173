import { z } from 'zod';
import { dealOutput } from '../deals/schemas.ts';
import { jobOutput } from '../jobs/schemas.ts';
import { recordOutput } from '../record-model/schemas.ts';
import { changeSources } from '../shared/actor.ts';
import { actorOutput, instantOutput } from '../shared/schemas.ts';
import { taskOutput } from '../tasks/schemas.ts';

/**
 * The payload of each event kind, as outgoing webhooks POST it and the event feed lists it
 * (docs/webhooks.md, "Payload"). The OpenAPI document describes one webhook per kind with
 * these; a test checks real deliveries against them.
 */

const common = <T extends string>(kind: T) => ({
  id: z.string().meta({
    description: 'The event id: the same on every retry and redelivery',
    example: 'evt_01jq3v6f6ve7s9t8m1k2c3d4e5',
  }),
  event: z.literal(kind),
  workspaceId: z.string(),
  occurredAt: instantOutput(),
  actor: actorOutput.meta({ description: 'Who made the change (docs/api.md, "History and provenance")' }),
  source: z.enum(changeSources).meta({ description: 'The surface the change came through' }),
  requestId: z
    .string()
    .nullable()
    .meta({ description: 'The X-Request-Id of the request that made it; null for the service’s own work' }),
});

/** The record an event is about, or the linked live record of a deal or task (null when none). */
const linkedRecord = {
  recordId: z.string().nullable(),
  folderId: z.string().nullable(),
  record: recordOutput
    .nullable()
    .meta({ description: 'As `GET /api/v1/records/{id}` answers it, as of the event' }),
};

const aboutRecord = {
  recordId: z.string(),
  folderId: z.string(),
  record: recordOutput.meta({ description: 'As `GET /api/v1/records/{id}` answers it, as of the event' }),
};

const changes = {
  changedFields: z.array(z.string()).meta({ description: '`title`, `email`, `data.<key>` …' }),
  previous: z
    .record(z.string(), z.unknown())
    .meta({ description: 'The values of exactly the changed fields before the change' }),
  changes: z
    .record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }))
    .meta({ description: 'Each changed field with its value before and after (null for none)' }),
};

/** A link's sides: `recordId`/`record` are the `from` record, as of the event. */
const linkFields = {
  recordId: z.string().meta({ description: 'The `from` record' }),
  folderId: z.string(),
  record: recordOutput
    .nullable()
    .meta({ description: 'The `from` record as `GET /api/v1/records/{id}` answers it, as of the event' }),
  from: z.string().meta({ description: 'The record whose field the relation was defined on' }),
  field: z.string().meta({ description: 'That RELATION field' }),
  to: z.string().meta({ description: 'The linked record' }),
  label: z.string().nullable(),
  inverseField: z
    .string()
    .nullable()
    .meta({ description: 'The paired field of `to`’s folder, or null when the relation has no inverse' }),
};

const dealFields = {
  ...linkedRecord,
  dealId: z.string(),
  pipelineId: z.string(),
  deal: dealOutput.meta({ description: 'As `GET /api/v1/deals/{id}` answers it, as of the event' }),
};

const taskFields = {
  ...linkedRecord,
  taskId: z.string(),
  task: taskOutput.meta({ description: 'As `GET /api/v1/tasks/{id}` answers it, as of the event' }),
};

const payload = <T extends z.ZodRawShape>(id: string, description: string, shape: T) =>
  z.object(shape).meta({ id, description });

export const eventPayloads = {
  'record.created': payload('RecordCreatedEvent', 'A record was created.', {
    ...common('record.created'),
    ...aboutRecord,
  }),
  'record.updated': payload('RecordUpdatedEvent', 'A record changed.', {
    ...common('record.updated'),
    ...aboutRecord,
    ...changes,
  }),
  'record.trashed': payload('RecordTrashedEvent', 'A record went to Trash (`record.trashedAt` set).', {
    ...common('record.trashed'),
    ...aboutRecord,
  }),
  'record.restored': payload('RecordRestoredEvent', 'A record came back from Trash.', {
    ...common('record.restored'),
    ...aboutRecord,
  }),
  'record.linked': payload(
    'RecordLinkedEvent',
    'Two records were linked through a RELATION field, or a link’s label changed (`previousLabel`). Sent once per link, named from the side of the field the relation was defined on.',
    {
      ...common('record.linked'),
      ...linkFields,
      previousLabel: z
        .string()
        .nullable()
        .optional()
        .meta({ description: 'Present when an existing link’s label changed: the label before' }),
    },
  ),
  'record.unlinked': payload(
    'RecordUnlinkedEvent',
    'A link between two records was removed (by an unlink, a ONE value replaced or cleared, or the removal of its field). Sent once per link.',
    { ...common('record.unlinked'), ...linkFields },
  ),
  'deal.created': payload('DealCreatedEvent', 'A deal was created.', {
    ...common('deal.created'),
    ...dealFields,
  }),
  'deal.updated': payload('DealUpdatedEvent', 'A deal changed.', {
    ...common('deal.updated'),
    ...dealFields,
    ...changes,
  }),
  'deal.stage_changed': payload('DealStageChangedEvent', 'A deal moved to another stage.', {
    ...common('deal.stage_changed'),
    ...dealFields,
    fromStageId: z.string(),
    toStageId: z.string(),
  }),
  'task.created': payload('TaskCreatedEvent', 'A task was created.', {
    ...common('task.created'),
    ...taskFields,
    previousTaskId: z
      .string()
      .nullable()
      .meta({ description: 'For the next occurrence of a recurring task: the task that was completed' }),
  }),
  'task.updated': payload('TaskUpdatedEvent', 'A task changed (its status too).', {
    ...common('task.updated'),
    ...taskFields,
    ...changes,
  }),
  'task.completed': payload('TaskCompletedEvent', 'A task was completed.', {
    ...common('task.completed'),
    ...taskFields,
    nextTaskId: z
      .string()
      .nullable()
      .meta({ description: 'For a recurring task: the next occurrence, created now' }),
  }),
  'workflow.run_failed': payload(
    'WorkflowRunFailedEvent',
    'A run of a workflow failed (docs/workflows.md, "Failures").',
    {
      ...common('workflow.run_failed'),
      workflowId: z.string(),
      workflowName: z.string(),
      runId: z.string(),
      recordId: z.string().nullable().meta({ description: 'The run’s context record, if any' }),
      step: z
        .object({ path: z.string(), name: z.string().nullable() })
        .nullable()
        .meta({ description: 'The step that failed (null when the run failed before any step)' }),
      error: z.string().meta({ description: 'Why it failed' }),
    },
  ),
  'job.completed': payload('JobCompletedEvent', 'A job ended SUCCEEDED (docs/jobs.md).', {
    ...common('job.completed'),
    recordId: z.null(),
    folderId: z.null(),
    record: z.null(),
    jobId: z.string(),
    job: jobOutput.meta({ description: 'As `GET /api/v1/jobs/{id}` answers it, as it ended' }),
  }),
  'job.failed': payload('JobFailedEvent', 'A job ended FAILED; `job.error` says why (docs/jobs.md).', {
    ...common('job.failed'),
    recordId: z.null(),
    folderId: z.null(),
    record: z.null(),
    jobId: z.string(),
    job: jobOutput.meta({ description: 'As `GET /api/v1/jobs/{id}` answers it, as it ended' }),
  }),
  'webhook.test': payload(
    'WebhookTestEvent',
    'Sent by `POST /api/v1/webhooks/{id}/test` to that subscription only.',
    {
      ...common('webhook.test'),
      recordId: z.null(),
      folderId: z.null(),
      record: z.null(),
      webhookId: z.string(),
      test: z.literal(true),
    },
  ),
} as const;

export type EventPayloadKind = keyof typeof eventPayloads;
