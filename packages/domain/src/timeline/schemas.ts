import { runStatuses } from '@crm/db/schema';
import { z } from 'zod';
import { callLogOutput } from '../calls/schemas.ts';
import { commentOutput } from '../comments/schemas.ts';
import { changeSources } from '../shared/actor.ts';
import { pagingInput } from '../shared/paging.ts';
import { actorOutput, idParam, instantOutput, listEnvelope } from '../shared/schemas.ts';

/** The kinds of entry a record's timeline holds (docs/api.md, "Record timeline"). */
const timelineKinds = [
  'record.created',
  'record.updated',
  'record.trashed',
  'record.restored',
  'comment.added',
  'call.logged',
  'task.created',
  'task.completed',
  'deal.stage_changed',
  'workflow.run',
  'record.linked',
  'record.unlinked',
] as const;

export type TimelineKind = (typeof timelineKinds)[number];

export const findTimelineInput = z.strictObject({
  id: idParam('Record id'),
  ...pagingInput,
});

export type FindTimelineInput = z.infer<typeof findTimelineInput>;

const actor = z
  .object({
    userId: z.string().nullable().meta({ description: 'The user (usr_…); null once that user is deleted.' }),
    name: z.string().meta({ description: 'Display name of the user at the time.' }),
  })
  .meta({ id: 'TimelineActor', description: 'Who wrote the comment or logged the call.' });

const change = z
  .object({
    field: z.string().meta({ description: '`title`, `email`, `phone`, `ownerId` or `data.<key>`' }),
    from: z.unknown().meta({ description: 'The value before the change; null when there was none.' }),
    to: z.unknown().meta({ description: 'The value after the change; null when it was removed.' }),
  })
  .meta({ id: 'TimelineChange' });

const comment = commentOutput.pick({ id: true, text: true }).meta({ id: 'TimelineComment' });

const call = callLogOutput
  .pick({ id: true, direction: true, outcome: true, duration: true, notes: true, calledAt: true })
  .meta({ id: 'TimelineCall' });

const task = z
  .object({
    id: z.string(),
    title: z.string().meta({ description: 'As of the entry.' }),
  })
  .meta({ id: 'TimelineTask' });

const stage = z
  .object({
    id: z.string(),
    name: z
      .string()
      .nullable()
      .meta({ description: "The stage's current name; null once the stage is removed." }),
  })
  .meta({ id: 'TimelineStage' });

const deal = z
  .object({
    id: z.string(),
    title: z.string().nullable().meta({ description: 'As of the move.' }),
    pipelineId: z.string(),
    from: stage,
    to: stage,
  })
  .meta({ id: 'TimelineDeal' });

const run = z
  .object({
    id: z.string().meta({ description: 'The run (run_…), as `GET /api/v1/runs/{id}` shows it.' }),
    workflowId: z.string(),
    workflowName: z.string(),
    status: z
      .enum(runStatuses)
      .meta({ description: 'As of now: a run still going is QUEUED, RUNNING or WAITING.' }),
    error: z.string().nullable().meta({ description: 'Why the run failed, when it did.' }),
  })
  .meta({ id: 'TimelineRun' });

const link = z
  .object({
    field: z.string().nullable().meta({
      description: 'The RELATION field of this record; null when the relation has no field on this side.',
    }),
    recordId: z.string().meta({ description: 'The other record of the link' }),
    title: z
      .string()
      .nullable()
      .meta({ description: "The other record's current title; null once it is gone." }),
    label: z.string().nullable(),
  })
  .meta({ id: 'TimelineLink' });

/**
 * One entry of a record's timeline. Every entry has every key; the one that describes its
 * `kind` is set and the others are null (docs/api.md, "Record timeline").
 */
const timelineEntryOutput = z
  .object({
    id: z.string().meta({
      description:
        'What the entry stands for: the event (evt_…), comment (note_…), call (call_…) or run (run_…); the record itself for `record.created`.',
      example: 'evt_01jq3v6f6ve7s9t8m1k2c3d4e5',
    }),
    at: instantOutput().meta({ description: 'When it happened; entries are newest first.' }),
    kind: z.enum(timelineKinds),
    actor: actor
      .nullable()
      .meta({ description: 'Set on `comment.added` and `call.logged`; null otherwise.' }),
    by: z
      .object({
        actor: actorOutput,
        source: z.enum(changeSources),
        requestId: z.string().nullable(),
      })
      .nullable()
      .meta({
        id: 'TimelineProvenance',
        description:
          'Who made the change, through which surface, in which request (docs/api.md, "History and provenance"): on the entries of changes (record.*, links, tasks, deal moves); null on comments, calls and runs, and on changes made before provenance was kept.',
      }),
    changes: z
      .array(change)
      .nullable()
      .meta({ description: '`record.updated`: each changed field, from what to what.' }),
    comment: comment.nullable().meta({ description: '`comment.added`' }),
    call: call.nullable().meta({ description: '`call.logged`' }),
    task: task.nullable().meta({ description: '`task.created`, `task.completed`' }),
    deal: deal.nullable().meta({ description: '`deal.stage_changed`: a deal linked to the record moved.' }),
    run: run.nullable().meta({ description: '`workflow.run`: an automation run for the record.' }),
    link: link
      .nullable()
      .meta({ description: '`record.linked`, `record.unlinked`: a link of this record, made or removed.' }),
  })
  .meta({ id: 'TimelineEntry' });

export type TimelineEntryOutput = z.infer<typeof timelineEntryOutput>;

export const timelineOutput = listEnvelope(timelineEntryOutput);

export type TimelineOutput = z.infer<typeof timelineOutput>;
