import {
  type ActionType,
  type actionParameters,
  actionTypes,
  conditionOperators,
  httpMethods,
} from '@crm/constants';
import { taskPriorities, taskTypes } from '@crm/db/schema';
import { z } from 'zod';
import { eventTypes } from '../shared/events.ts';
import { pagingInput } from '../shared/paging.ts';
import { idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';
import { collectTemplateProblems, hasTemplate } from './templates.ts';

/** Limits of workflows (docs/workflows.md, "Managing workflows (REST and tRPC)"). */
export const MAX_WORKFLOWS_PER_WORKSPACE = 100;
export const MAX_ACTIONS = 20;
export const DEFAULT_TRIGGER_RATE_LIMIT = 600;

export const triggerTypes = ['INCOMING_WEBHOOK', ...eventTypes] as const;
export { type ActionType, actionTypes, conditionOperators, httpMethods };

const TEMPLATE_HINT = 'or a template ({{ … }} or [[ … ]])';

/** An id or any text; may hold templates. Its target is checked when the step runs. */
const ref = (description: string) => nonBlankText(300).meta({ description });
const text = (max: number) => z.string().max(max);
const templatedNumber = (description: string) =>
  z
    .union([z.number(), z.string().max(300).refine(hasTemplate, `must be a number ${TEMPLATE_HINT}`)], {
      error: `must be a number ${TEMPLATE_HINT}`,
    })
    .meta({ description });
const oneOf = (values: readonly string[]) =>
  z
    .string()
    .refine(
      (value) => values.includes(value) || hasTemplate(value),
      `must be one of ${values.join(', ')} ${TEMPLATE_HINT}`,
    )
    .meta({ description: `One of ${values.join(', ')}, or a template` });
const customValues = z
  .record(z.string(), z.unknown())
  .meta({ description: 'Custom field values by field key; string values may hold templates.' });
const contextRecord = ref('A record id; default the run’s context record');

const createRecord = z
  .strictObject({
    type: z.literal('CREATE_RECORD'),
    folderId: ref('Folder of the new record (fld_…)'),
    title: text(500).min(1, 'must not be empty'),
    email: text(320).optional(),
    phone: text(64).optional(),
    data: customValues.optional(),
    ownerId: ref('A user of the workspace (usr_…)').optional(),
    upsertBy: z.literal('email').optional().meta({
      description:
        'With `email`: update the live record of the folder with that email instead of creating one',
    }),
  })
  .meta({
    id: 'CreateRecordAction',
    description: 'Creates a record (or upserts it by email); it becomes the context record.',
  });

const updateRecord = z
  .strictObject({
    type: z.literal('UPDATE_RECORD'),
    recordId: contextRecord.optional(),
    title: text(500).optional(),
    email: text(320).nullable().optional(),
    phone: text(64).nullable().optional(),
    data: customValues.optional(),
  })
  .refine(
    (a) => a.title !== undefined || a.email !== undefined || a.phone !== undefined || a.data !== undefined,
    'must change at least one of title, email, phone, data',
  )
  .meta({ id: 'UpdateRecordAction', description: 'Updates the context record; `data` merges.' });

const assignOwner = z
  .strictObject({
    type: z.literal('ASSIGN_OWNER'),
    ownerId: ref('A user of the workspace (usr_…)'),
    recordId: contextRecord.optional(),
  })
  .meta({ id: 'AssignOwnerAction', description: 'Sets the owner of the context record.' });

const moveDealStage = z
  .strictObject({
    type: z.literal('MOVE_DEAL_STAGE'),
    dealId: ref('The deal (deal_…), e.g. {{ steps.2.output.id }} or [[ steps.2.output.id ]]'),
    stageId: ref('A stage of the deal’s pipeline (st_…)'),
  })
  .meta({ id: 'MoveDealStageAction', description: 'Moves a deal to a stage (fires deal.stage_changed).' });

const createDeal = z
  .strictObject({
    type: z.literal('CREATE_DEAL'),
    pipelineId: ref('Pipeline of the deal (pl_…)'),
    stageId: ref('A stage of the pipeline; default its first stage').optional(),
    title: text(500).optional(),
    amount: templatedNumber('Decimal ≥ 0 with at most 2 decimals').optional(),
    currency: text(10).optional(),
    closeDate: text(100).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    recordId: contextRecord.optional(),
  })
  .meta({ id: 'CreateDealAction', description: 'Creates a deal linked to the context record, if any.' });

const createTask = z
  .strictObject({
    type: z.literal('CREATE_TASK'),
    title: text(500).min(1, 'must not be empty'),
    dueAt: text(100).optional().meta({ description: 'An ISO 8601 instant' }),
    dueInDays: templatedNumber('Due this many days after the step runs (instead of dueAt)').optional(),
    assigneeId: ref('A user of the workspace (usr_…)').optional(),
    priority: oneOf(taskPriorities).optional(),
    taskType: oneOf(taskTypes).optional(),
    recordId: contextRecord.optional(),
  })
  .refine((a) => a.dueAt === undefined || a.dueInDays === undefined, 'give dueAt or dueInDays, not both')
  .meta({ id: 'CreateTaskAction', description: 'Creates a task linked to the context record, if any.' });

const addComment = z
  .strictObject({
    type: z.literal('ADD_COMMENT'),
    text: text(10_000).min(1, 'must not be empty'),
    recordId: contextRecord.optional(),
  })
  .meta({ id: 'AddCommentAction', description: 'Adds a comment to the context record.' });

const linkRecords = z
  .strictObject({
    type: z.literal('LINK_RECORDS'),
    field: nonBlankText(100).meta({ description: 'A RELATION field of the context record’s folder' }),
    to: ref('The record to link: its id (rec_…), or its email or title with `by`; may hold templates'),
    by: z.enum(['id', 'email', 'title']).optional().meta({
      description:
        'How `to` names the record (default `id`): by email or title, the one live record of the field’s folder that has it',
    }),
    label: text(100).optional().meta({ description: 'One of the field’s labels' }),
    recordId: contextRecord.optional(),
  })
  .meta({
    id: 'LinkRecordsAction',
    description:
      'Links the context record to another through a RELATION field (docs/api.md, "Relations"), as `POST /records/{id}/links` does; linking again changes nothing but the label. Output: the link and `created`.',
  });

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const RESERVED = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

const httpRequest = z
  .strictObject({
    type: z.literal('HTTP_REQUEST'),
    method: z.enum(httpMethods).optional().meta({ description: 'Default POST' }),
    url: nonBlankText(2048).meta({ description: 'http(s) URL; may hold templates' }),
    headers: z
      .record(z.string().regex(HEADER_NAME, 'is not a valid header name'), z.string().max(1000))
      .superRefine((value, ctx) => {
        if (Object.keys(value).length > 20) ctx.addIssue({ code: 'custom', message: 'at most 20 headers' });
        for (const name of Object.keys(value)) {
          if (!HEADER_NAME.test(name))
            ctx.addIssue({ code: 'custom', path: [name], message: 'is not a valid header name' });
          else if (RESERVED.has(name.toLowerCase()))
            ctx.addIssue({ code: 'custom', path: [name], message: 'is set by the service' });
        }
      })
      .meta({
        maxProperties: 20,
        description: `Up to 20 headers; not ${[...RESERVED].join(', ')}, which the service sets.`,
      })
      .optional(),
    body: z.unknown().optional().meta({
      description: 'JSON sent as the body (strings inside may hold templates); not with GET',
    }),
  })
  .refine((a) => !(a.method === 'GET' && a.body !== undefined), 'a GET request has no body')
  .meta({
    id: 'HttpRequestAction',
    description:
      'Calls an external URL (same address rules and timeouts as webhooks); a non-2xx answer fails the step. Output: `{ status, headers, body }`.',
  });

const condition = z
  .strictObject({
    type: z.literal('CONDITION'),
    left: z.unknown().meta({
      description: 'A value or a template, e.g. {{ trigger.body.country }} or [[ trigger.body.country ]]',
    }),
    operator: z.enum(conditionOperators),
    right: z.unknown().optional(),
  })
  .refine(
    (a) => a.operator === 'EXISTS' || a.operator === 'NOT_EXISTS' || a.right !== undefined,
    'right is required for this operator',
  )
  .meta({ id: 'ConditionAction', description: 'Stops the run (SUCCEEDED, later steps SKIPPED) when false.' });

export const actionSchemas = {
  CREATE_RECORD: createRecord,
  UPDATE_RECORD: updateRecord,
  ASSIGN_OWNER: assignOwner,
  MOVE_DEAL_STAGE: moveDealStage,
  CREATE_DEAL: createDeal,
  CREATE_TASK: createTask,
  ADD_COMMENT: addComment,
  LINK_RECORDS: linkRecords,
  HTTP_REQUEST: httpRequest,
  CONDITION: condition,
} as const;

/**
 * The parameter table the web app builds its forms from (`actionParameters` of
 * `@crm/constants`) names exactly each schema's parameters, required where the schema requires
 * them. Checked by the compiler: a parameter added, removed or made optional on one side only
 * fails the typecheck here.
 */
type Parameters<T extends ActionType> = Omit<z.input<(typeof actionSchemas)[T]>, 'type'>;
type RequiredKeys<O> = { [K in keyof O]-?: object extends Pick<O, K> ? never : K }[keyof O];
type DeclaredRequired<T extends ActionType> = {
  [K in keyof (typeof actionParameters)[T]]: (typeof actionParameters)[T][K] extends true ? K : never;
}[keyof (typeof actionParameters)[T]];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agrees<T extends ActionType> =
  Same<keyof Parameters<T>, keyof (typeof actionParameters)[T]> extends true
    ? Same<RequiredKeys<Parameters<T>>, DeclaredRequired<T>>
    : false;
const parametersAgree: { [T in ActionType]: Agrees<T> } = {
  CREATE_RECORD: true,
  UPDATE_RECORD: true,
  ASSIGN_OWNER: true,
  MOVE_DEAL_STAGE: true,
  CREATE_DEAL: true,
  CREATE_TASK: true,
  ADD_COMMENT: true,
  LINK_RECORDS: true,
  HTTP_REQUEST: true,
  CONDITION: true,
};
void parametersAgree;

/**
 * The actions as one union on `type`, for the OpenAPI document: each action type is a
 * component of its own, and the document's `oneOf` with a `discriminator` tells a generated
 * client which parameters each type takes. The server checks a list with `actions` below,
 * which names the exact path of each problem.
 */
export const workflowActionSchema = z
  .discriminatedUnion('type', [
    createRecord,
    updateRecord,
    assignOwner,
    moveDealStage,
    createDeal,
    createTask,
    addComment,
    linkRecords,
    httpRequest,
    condition,
  ])
  .meta({ id: 'WorkflowAction', unusedIO: 'input' });

const ACTION_ITEMS = { $ref: '#/components/schemas/WorkflowAction' };

export type ActionOf<T extends ActionType> = z.infer<(typeof actionSchemas)[T]>;
export type Action = { [T in ActionType]: ActionOf<T> }[ActionType];

/**
 * The action list: each action checked against its type's schema, and every template checked
 * (known roots, `steps.<n>` naming an earlier step), with the path of each problem.
 */
const actions = z
  .array(z.record(z.string(), z.unknown()))
  .min(1, 'must hold at least one action')
  .max(MAX_ACTIONS, `must hold at most ${MAX_ACTIONS} actions`)
  .transform((list, ctx) => {
    const parsed: Action[] = [];
    list.forEach((raw, index) => {
      const type = raw.type;
      if (typeof type !== 'string' || !(actionTypes as readonly string[]).includes(type)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'type'],
          message: `must be one of ${actionTypes.join(', ')}`,
        });
        return;
      }
      const result = actionSchemas[type as ActionType].safeParse(raw);
      if (!result.success) {
        for (const issue of result.error.issues) {
          ctx.addIssue({ code: 'custom', path: [index, ...issue.path.map(String)], message: issue.message });
        }
        return;
      }
      const problems: { path: string; message: string }[] = [];
      for (const [key, value] of Object.entries(result.data)) {
        if (key !== 'type') collectTemplateProblems(value, index, key, problems);
      }
      for (const problem of problems) {
        ctx.addIssue({ code: 'custom', path: [index, ...problem.path.split('.')], message: problem.message });
      }
      parsed.push(result.data as Action);
    });
    return parsed;
  })
  .meta({
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      jsonSchema.items = ACTION_ITEMS;
    },
    description:
      'Run in order. Each is `{ type, ...parameters }`; string parameters may hold `{{ trigger.body.* }}`, `{{ record.* }}` and `{{ steps.<index>.output.* }}` templates, or the same written `[[ trigger.body.* ]]`, which n8n, Make and Zapier leave alone.',
  });

const trigger = z
  .strictObject({
    type: z.enum(triggerTypes).meta({
      description: 'INCOMING_WEBHOOK (a URL to POST to) or an event kind (runs on every such event)',
    }),
  })
  .meta({ id: 'WorkflowTriggerInput' });

const name = nonBlankText(200);
const rateLimitPerMinute = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be between 1 and 1000000')
  .max(1_000_000, 'must be between 1 and 1000000')
  .meta({ description: `Incoming calls accepted per minute (default ${DEFAULT_TRIGGER_RATE_LIMIT})` });
const requireSignature = z.boolean().meta({
  description:
    'When true, incoming calls must carry `X-Service-Signature: sha256=<hex HMAC of the body>` made with the workflow secret (returned once).',
});

export const createWorkflowInput = z.strictObject({
  name,
  enabled: z.boolean().optional().meta({ description: 'Default true' }),
  trigger,
  actions,
  requireSignature: requireSignature.optional(),
  rateLimitPerMinute: rateLimitPerMinute.optional(),
});

export const updateWorkflowInput = z.strictObject({
  id: idParam('Workflow id'),
  name: name.optional(),
  enabled: z.boolean().optional(),
  trigger: trigger.optional(),
  actions: actions.optional(),
  requireSignature: requireSignature.optional().meta({
    description: 'true creates a secret (returned once) if there is none; false removes it',
  }),
  rateLimitPerMinute: rateLimitPerMinute.optional(),
});

export const workflowIdInput = z.strictObject({ id: idParam('Workflow id') });
export const findWorkflowsInput = z.strictObject({ ...pagingInput });
export const findRunsInput = z.strictObject({
  id: idParam('Workflow id'),
  status: z.enum(['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED']).optional(),
  ...pagingInput,
});
export const runIdInput = z.strictObject({ id: idParam('Run id') });

export const workflowOutput = z
  .object({
    id: z.string().meta({ example: 'wf_7ztm1m0ny2bk3r2yj0jvbxg0qa' }),
    name: z.string(),
    enabled: z.boolean(),
    trigger: z
      .object({
        type: z.enum(triggerTypes),
        url: z.string().nullable().meta({
          description: 'For INCOMING_WEBHOOK: the URL to POST to (its id is the secret); null otherwise',
        }),
      })
      .meta({ id: 'WorkflowTrigger' }),
    actions: z.array(z.record(z.string(), z.unknown())).meta({
      description: 'As saved: `{ type, ...parameters }`',
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.items = ACTION_ITEMS;
      },
    }),
    requireSignature: z.boolean(),
    rateLimitPerMinute: z.number().int(),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'Workflow' });

export type WorkflowOutput = z.infer<typeof workflowOutput>;

export const workflowWithSecretOutput = workflowOutput
  .extend({
    secret: z.string().nullable().meta({
      description:
        'Signing secret for incoming calls (`whsec_…`), shown only when created or rotated; null when none is required',
    }),
  })
  .meta({ id: 'WorkflowWithSecret' });

/** One warning of a save (docs/workflows.md, "Warnings on save"). */
export const workflowWarningOutput = z
  .object({
    path: z.string().meta({ example: 'actions.2.body.email' }),
    message: z.string().meta({
      example:
        'is empty: was a {{ }} template here filled in by the tool that sent the automation? Write it as [[ … ]]',
    }),
  })
  .meta({ id: 'WorkflowWarning' });

/**
 * The answer of a create or an update: the workflow, and `meta.warnings` (always present,
 * empty when nothing looks wrong).
 */
export const savedWorkflowOutput = z
  .object({
    data: workflowWithSecretOutput,
    meta: z
      .object({
        warnings: z.array(workflowWarningOutput).meta({
          description:
            'Action values that look like a `{{ }}` template another tool (n8n, Make) filled in before sending: "", "undefined", "null", "[object Object]" where a value is expected. The workflow is saved as given; empty when nothing looks wrong.',
        }),
      })
      .meta({ id: 'WorkflowSaveMeta' }),
  })
  .meta({ id: 'WorkflowSaveAnswer' });

export const runStepOutput = z
  .object({
    index: z.number().int(),
    action: z.string(),
    status: z.enum(['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED']),
    input: z.unknown().meta({ description: 'The parameters after templates were rendered' }),
    output: z.unknown(),
    error: z.string().nullable(),
    attempts: z.number().int(),
    nextAttemptAt: instantOutput()
      .nullable()
      .meta({ description: 'When a failed step will be tried again (5 attempts in all); null otherwise' }),
    startedAt: instantOutput().nullable(),
    finishedAt: instantOutput().nullable(),
  })
  .meta({ id: 'RunStep' });

export const runOutput = z
  .object({
    id: z.string().meta({ example: 'run_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    workflowId: z.string(),
    status: z.enum(['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED']),
    trigger: z.enum(['INCOMING_WEBHOOK', 'EVENT', 'RERUN']),
    input: z.unknown().meta({ description: 'The trigger payload: the incoming JSON body, or the event' }),
    recordId: z.string().nullable().meta({ description: 'The context record given by the trigger' }),
    steps: z.array(runStepOutput),
    error: z.string().nullable().meta({ description: 'Why the run failed' }),
    rerunOf: z.string().nullable(),
    createdAt: instantOutput(),
    startedAt: instantOutput().nullable(),
    finishedAt: instantOutput().nullable(),
  })
  .meta({ id: 'Run' });

export type RunOutput = z.infer<typeof runOutput>;
