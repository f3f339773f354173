import { fieldTypes, relationCardinalities } from '@crm/db/schema';
import { z } from 'zod';
import { eventTypes } from '../shared/events.ts';

/**
 * The configuration document (docs/operations.md, "Configuration as code"): a workspace's
 * folders and fields, pipelines and stages, workflows, webhook subscriptions and the caller's
 * saved views, with names for keys and no ids or secrets, so that it can be reviewed, diffed
 * and applied to another workspace. `GET /config` writes it; `POST /config/plan` and
 * `POST /config/apply` read it. Its JSON Schema is served at `/api/v1/config.schema.json`.
 *
 * The parts are checked here for their shape; what they mean (a field's options, a workflow's
 * actions) is checked by the same rules the API's own calls apply, when a plan is made.
 */

export const CONFIG_VERSION = 1;

/** Most objects of one kind a document may hold (more than a workspace may have of each). */
const MAX_ITEMS = 1000;

const name = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200)
  .meta({ description: 'The key of the object in the document: unique among its kind' });

const relation = z
  .strictObject({
    folder: z.string().max(200).meta({ description: 'The name of the folder of the linked records' }),
    cardinality: z.enum(relationCardinalities),
    labels: z.array(z.string().max(200)).max(50).optional(),
    inverseKey: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'The paired field of the target folder, when the relation has one' }),
  })
  .meta({ id: 'ConfigRelation' });

const field = z
  .strictObject({
    key: z.string().max(100).meta({ description: 'The key of the value in record `data`: the field’s key' }),
    label: z.string().max(200),
    type: z.enum(fieldTypes),
    options: z.array(z.string().max(200)).max(500).optional(),
    relation: relation.optional(),
  })
  .meta({ id: 'ConfigField' });

const folder = z
  .strictObject({
    name,
    fields: z.array(field).max(200).meta({ description: 'In display order' }),
  })
  .meta({ id: 'ConfigFolder' });

const pipeline = z
  .strictObject({
    name,
    stages: z.array(z.string().trim().min(1).max(200)).min(1).max(50).meta({ description: 'In order' }),
  })
  .meta({ id: 'ConfigPipeline' });

/** A member, by email, where a workflow names one (owner, assignee, notifyOnFailure). */
const userRef = z.strictObject({ $user: z.string().max(320) });

const workflow = z
  .strictObject({
    name,
    enabled: z.boolean(),
    trigger: z
      .strictObject({
        type: z.enum(['INCOMING_WEBHOOK', 'SCHEDULE', ...eventTypes]),
        cron: z.string().max(200).optional(),
        timezone: z.string().max(100).optional(),
      })
      .meta({ id: 'ConfigTrigger' }),
    actions: z.array(z.record(z.string(), z.unknown())).max(50).meta({
      description:
        'The actions as `POST /workflows` takes them, with `{ "$folder": name }`, `{ "$pipeline": name }`, `{ "$stage": [pipeline, stage] }` and `{ "$user": email }` where they name a folder, pipeline, stage or member',
    }),
    requireSignature: z.boolean(),
    rateLimitPerMinute: z.number().int().min(1).max(1_000_000),
    notifyOnFailure: z.array(userRef).max(20),
  })
  .meta({ id: 'ConfigWorkflow' });

const webhook = z
  .strictObject({
    url: z.string().max(2048),
    events: z.array(z.string().max(100)).min(1).max(100),
    fields: z.array(z.string().max(200)).max(100),
    headers: z.record(z.string().max(100), z.string().max(1000)).meta({
      description:
        'Custom headers; values are exported masked (they may be tokens). A masked value keeps the value a subscription already has; a new subscription needs the full value.',
    }),
    description: z.string().max(500),
    enabled: z.boolean(),
  })
  .meta({ id: 'ConfigWebhook' });

const view = z
  .strictObject({
    folder: z.string().max(200).meta({ description: 'The name of the view’s folder' }),
    name,
    columns: z.array(z.string().max(200)).max(200),
    sort: z.string().max(200).nullable(),
    filters: z
      .array(
        z.strictObject({ field: z.string().max(200), op: z.string().max(20), value: z.string().max(2000) }),
      )
      .max(50),
  })
  .meta({ id: 'ConfigView' });

export const configDocument = z
  .strictObject({
    version: z.literal(CONFIG_VERSION),
    folders: z.array(folder).max(MAX_ITEMS),
    pipelines: z.array(pipeline).max(MAX_ITEMS),
    workflows: z.array(workflow).max(MAX_ITEMS),
    webhooks: z.array(webhook).max(MAX_ITEMS),
    views: z
      .array(view)
      .max(MAX_ITEMS)
      .meta({ description: 'The saved views of the user who exports or applies' }),
  })
  .meta({ id: 'ConfigDocument', title: 'Workspace configuration' });

export type ConfigDocument = z.infer<typeof configDocument>;
export type ConfigFolder = ConfigDocument['folders'][number];
export type ConfigField = ConfigFolder['fields'][number];
export type ConfigPipeline = ConfigDocument['pipelines'][number];
export type ConfigWorkflow = ConfigDocument['workflows'][number];
export type ConfigWebhook = ConfigDocument['webhooks'][number];
export type ConfigView = ConfigDocument['views'][number];

const configKinds = ['folder', 'field', 'pipeline', 'stage', 'workflow', 'webhook', 'view'] as const;
export type ConfigKind = (typeof configKinds)[number];

export const planInput = z.strictObject({
  document: configDocument,
  prune: z
    .boolean()
    .optional()
    .meta({ description: 'true: remove what the workspace has and the document lacks (default false)' }),
});

const change = z
  .object({
    op: z.enum(['create', 'update', 'remove']),
    kind: z.enum(configKinds),
    key: z.string().meta({
      description:
        'The object: a folder, pipeline, workflow or view by name (`People`, `People/VIPs`), a field as `folder.key`, a stage as `pipeline/stage`, a webhook by its URL',
    }),
    changes: z
      .array(z.string())
      .optional()
      .meta({ description: 'For an update: what changes (`label`, `options`, `actions` …)' }),
    cascade: z
      .array(z.string())
      .optional()
      .meta({ description: 'What else the change does to data: values removed, links dropped, deals moved' }),
  })
  .meta({ id: 'ConfigChange' });

const left = z
  .object({
    kind: z.enum(configKinds),
    key: z.string(),
    reason: z.string(),
  })
  .meta({ id: 'ConfigLeft' });

export const planOutput = z
  .object({
    changes: z.array(change).meta({ description: 'In the order apply makes them' }),
    left: z.array(left).meta({
      description:
        'What the workspace has and the document lacks that stays: everything without `prune`; folders and pipelines, which the API does not remove, with it',
    }),
  })
  .meta({ id: 'ConfigPlan' });

export const applyOutput = planOutput
  .extend({
    secrets: z
      .array(z.object({ kind: z.enum(['webhook', 'workflow']), key: z.string(), secret: z.string() }))
      .meta({
        description: 'The secrets of subscriptions and signed workflows made by this apply: shown once',
      }),
  })
  .meta({ id: 'ConfigApplied' });

export type ConfigChange = z.infer<typeof change>;
export type ConfigPlan = z.infer<typeof planOutput>;
export type ConfigApplied = z.infer<typeof applyOutput>;
