import {
  type ActionType,
  type actionParameters,
  actionTypes,
  approvalTimeouts,
  conditionOperators,
  httpMethods,
} from '@crm/constants';
import { runStatuses, stepStatuses, taskPriorities, taskTypes } from '@crm/db/schema';
import { z } from 'zod';
import { queryRecordsInput } from '../record-model/schemas.ts';
import { eventTypes } from '../shared/events.ts';
import { pagingInput } from '../shared/paging.ts';
import { idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';
import { describeIssue } from '../shared/zod-issues.ts';
import { collectTemplateProblems, hasTemplate } from './templates.ts';
import { checkDelayUntil, checkDuration, checkSchedule } from './timing.ts';

/** Limits of workflows (docs/workflows.md, "Managing workflows (REST and tRPC)"). */
export const MAX_WORKFLOWS_PER_WORKSPACE = 100;
/** Actions in a workflow, counting those inside branches and loops, and how deep they nest. */
const MAX_ACTIONS = 50;
const MAX_NESTING = 5;
const DEFAULT_TRIGGER_RATE_LIMIT = 600;

const triggerTypes = ['INCOMING_WEBHOOK', 'SCHEDULE', ...eventTypes] as const;

export { conditionOperators };

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

/** A step's name (docs/workflows.md, "Names"): templates read `steps.<name>.output.*`. */
const STEP_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const stepName = z
  .string()
  .regex(STEP_NAME, 'must start with a-z and hold only a-z, 0-9 and _ (at most 40 characters)')
  .meta({ description: 'A name unique in the workflow; templates read `steps.<name>.output.*`' });

const createRecord = z
  .strictObject({
    type: z.literal('CREATE_RECORD'),
    name: stepName.optional(),
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
    name: stepName.optional(),
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
    name: stepName.optional(),
    ownerId: ref('A user of the workspace (usr_…)'),
    recordId: contextRecord.optional(),
  })
  .meta({ id: 'AssignOwnerAction', description: 'Sets the owner of the context record.' });

const moveDealStage = z
  .strictObject({
    type: z.literal('MOVE_DEAL_STAGE'),
    name: stepName.optional(),
    dealId: ref('The deal (deal_…), e.g. {{ steps.2.output.id }} or [[ steps.2.output.id ]]'),
    stageId: ref('A stage of the deal’s pipeline (st_…)'),
  })
  .meta({ id: 'MoveDealStageAction', description: 'Moves a deal to a stage (fires deal.stage_changed).' });

const createDeal = z
  .strictObject({
    type: z.literal('CREATE_DEAL'),
    name: stepName.optional(),
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
    name: stepName.optional(),
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
    name: stepName.optional(),
    text: text(10_000).min(1, 'must not be empty'),
    recordId: contextRecord.optional(),
  })
  .meta({ id: 'AddCommentAction', description: 'Adds a comment to the context record.' });

const linkRecords = z
  .strictObject({
    type: z.literal('LINK_RECORDS'),
    name: stepName.optional(),
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
    name: stepName.optional(),
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

/** A comparison of two values: CONDITION's parameters, and a leaf of a BRANCH condition. */
const comparison = {
  left: z.unknown().meta({
    description: 'A value or a template, e.g. {{ trigger.body.country }} or [[ trigger.body.country ]]',
  }),
  operator: z.enum(conditionOperators),
  right: z.unknown().optional(),
};
const rightGiven = (a: { operator: string; right?: unknown }) =>
  a.operator === 'EXISTS' || a.operator === 'NOT_EXISTS' || a.right !== undefined;
const RIGHT_REQUIRED = 'right is required for this operator';

const condition = z
  .strictObject({ type: z.literal('CONDITION'), name: stepName.optional(), ...comparison })
  .refine(rightGiven, RIGHT_REQUIRED)
  .meta({ id: 'ConditionAction', description: 'Stops the run (SUCCEEDED, later steps SKIPPED) when false.' });

/**
 * Actions inside a branch's arm or a loop's body. The schemas that check a workflow take them
 * as a list of objects, which the check of the whole list goes through (`checkList`, with the
 * path of each problem); the document shows them as a list of `WorkflowAction`
 * (`nestedActionsDoc`).
 */
const nestedActions = (description: string) =>
  z.array(z.record(z.string(), z.unknown())).meta({ description });
const nestedActionsDoc = (description: string) =>
  z.array(z.lazy((): z.ZodType => workflowActionSchema)).meta({ description });

/** How deep conditions may nest in `all`, `any` and `not`. */
const MAX_CONDITION_DEPTH = 5;
/** A leaf of a condition, as the document shows it (the same as CONDITION's parameters). */
const LEAF_JSON = {
  type: 'object',
  required: ['left', 'operator'],
  additionalProperties: false,
  properties: {
    left: { description: 'A value or a template' },
    operator: { type: 'string', enum: [...conditionOperators] },
    right: { description: 'A value or a template; not for EXISTS and NOT_EXISTS' },
  },
};
const CONDITION_REF = { $ref: '#/components/schemas/WorkflowCondition' };

/**
 * A BRANCH's condition: a leaf `{ left, operator, right }` with CONDITION's operators, or
 * `{ all: [...] }`, `{ any: [...] }`, `{ not: ... }`, at most 5 deep. Checked by
 * `conditionProblems`, which names the path of each problem.
 */
type ConditionExpression =
  | { left: unknown; operator: (typeof conditionOperators)[number]; right?: unknown }
  | { all: ConditionExpression[] }
  | { any: ConditionExpression[] }
  | { not: ConditionExpression };

const conditionLeafSchema = z
  .strictObject(comparison)
  .refine(rightGiven, RIGHT_REQUIRED)
  .meta({ description: 'Compares two values, as CONDITION does.' });

const conditionExpression = z
  .custom<ConditionExpression>((value) => value !== null && typeof value === 'object')
  .meta({
    id: 'WorkflowCondition',
    description: `A leaf \`{ left, operator, right }\`, or \`{ all: [...] }\`, \`{ any: [...] }\`, \`{ not: ... }\`; at most ${MAX_CONDITION_DEPTH} deep.`,
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, {
        description: `A leaf \`{ left, operator, right }\`, or \`{ all: [...] }\`, \`{ any: [...] }\`, \`{ not: ... }\`; at most ${MAX_CONDITION_DEPTH} deep.`,
        oneOf: [
          LEAF_JSON,
          {
            type: 'object',
            required: ['all'],
            additionalProperties: false,
            properties: { all: { type: 'array', minItems: 1, items: CONDITION_REF } },
          },
          {
            type: 'object',
            required: ['any'],
            additionalProperties: false,
            properties: { any: { type: 'array', minItems: 1, items: CONDITION_REF } },
          },
          {
            type: 'object',
            required: ['not'],
            additionalProperties: false,
            properties: { not: CONDITION_REF },
          },
        ],
      });
    },
  });

/** Each problem of a condition expression, with its path below `path`. */
function conditionProblems(
  value: unknown,
  path: (string | number)[],
  out: { path: (string | number)[]; message: string }[],
  depth = 1,
): void {
  if (depth > MAX_CONDITION_DEPTH) {
    out.push({ path, message: `conditions nest at most ${MAX_CONDITION_DEPTH} deep` });
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    out.push({ path, message: 'must be { left, operator, right }, { all }, { any } or { not }' });
    return;
  }
  const keys = Object.keys(value);
  const group = keys.find((k) => k === 'all' || k === 'any' || k === 'not');
  if (group) {
    if (keys.length !== 1) {
      out.push({ path, message: `a group holds only \`${group}\`` });
      return;
    }
    const inner = (value as Record<string, unknown>)[group];
    if (group === 'not') {
      conditionProblems(inner, [...path, 'not'], out, depth + 1);
      return;
    }
    if (!Array.isArray(inner) || inner.length === 0 || inner.length > 50) {
      out.push({ path: [...path, group], message: 'must be a list of 1 to 50 conditions' });
      return;
    }
    inner.forEach((item, i) => {
      conditionProblems(item, [...path, group, i], out, depth + 1);
    });
    return;
  }
  const leaf = conditionLeafSchema.safeParse(value);
  if (!leaf.success) {
    for (const issue of leaf.error.issues)
      out.push({ path: [...path, ...issue.path.map(String)], message: describeIssue(issue) });
  }
}

const BRANCH_ARMS = { then: 'Run when the condition holds', else: 'Run when it does not (default none)' };
const branchFields = {
  type: z.literal('BRANCH'),
  name: stepName.optional(),
  if: conditionExpression,
};
const branch = z.strictObject({
  ...branchFields,
  then: nestedActions(BRANCH_ARMS.then),
  else: nestedActions(BRANCH_ARMS.else).optional(),
});
const branchDoc = z
  .strictObject({
    ...branchFields,
    then: nestedActionsDoc(BRANCH_ARMS.then),
    else: nestedActionsDoc(BRANCH_ARMS.else).optional(),
  })
  .meta({
    id: 'BranchAction',
    description: 'Runs `then` when the condition holds, else `else`, then goes on. Output: `{ passed }`.',
  });

const DURATION_HINT = 'an ISO 8601 duration such as PT2H or P3D';
const delay = z
  .strictObject({
    type: z.literal('DELAY'),
    name: stepName.optional(),
    for: z
      .string()
      .max(100)
      .optional()
      .meta({ description: `How long to wait: ${DURATION_HINT}, 1 second to 365 days` }),
    until: z.string().max(300).optional().meta({
      description:
        'Wait until an instant with its offset (`2026-12-01T08:00:00Z`) or a date (`2026-12-01`, with `at` and `timezone`); may hold a template. A moment past goes on at once.',
    }),
    at: z.string().optional().meta({ description: 'With a date: the local time, `HH:MM` (default 00:00)' }),
    timezone: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'With a date: an IANA time zone (default UTC)' }),
  })
  .superRefine((a, ctx) => {
    if ((a.for === undefined) === (a.until === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['for'], message: 'give either for or until' });
      return;
    }
    if (a.for !== undefined) {
      const problem = checkDuration(a.for);
      if (problem) ctx.addIssue({ code: 'custom', path: ['for'], message: problem });
      if (a.at !== undefined || a.timezone !== undefined)
        ctx.addIssue({ code: 'custom', path: ['at'], message: 'at and timezone go with until, not for' });
      return;
    }
    const problem = checkDelayUntil(a.until ?? '', a.at, a.timezone);
    if (problem) ctx.addIssue({ code: 'custom', path: ['until'], message: problem });
  })
  .meta({
    id: 'DelayAction',
    description:
      'Makes the run wait (`WAITING`, with `resumeAt`) for a duration or until a moment; a waiting run holds no worker. Output: `{ resumeAt }`.',
  });

/** The most items a FOR_EACH goes through. */
export const MAX_LOOP_ITEMS = 1000;

const loopRecords = queryRecordsInput.pick({ folderId: true, filter: true, q: true, sort: true }).meta({
  id: 'ForEachRecords',
  description: 'The records of `POST /records/query` with this body, as the workflow’s maker sees them',
});

const LOOP_BODY = 'Run for each item; templates read `item.*` and `loop.index`';
const forEachFields = {
  type: z.literal('FOR_EACH'),
  name: stepName.optional(),
  items: z
    .union([z.string().max(300), z.array(z.unknown()).max(MAX_LOOP_ITEMS)])
    .optional()
    .meta({ description: 'A template giving a list (`{{ trigger.body.lines }}`), or a list' }),
  records: loopRecords.optional(),
  continueOnError: z
    .boolean()
    .optional()
    .meta({ description: 'true: an item whose step fails is recorded and the loop goes on' }),
};
const forEach = z
  .strictObject({ ...forEachFields, actions: nestedActions(LOOP_BODY) })
  .superRefine((a, ctx) => {
    if ((a.items === undefined) === (a.records === undefined))
      ctx.addIssue({ code: 'custom', path: ['items'], message: 'give either items or records' });
    if (typeof a.items === 'string' && !hasTemplate(a.items))
      ctx.addIssue({ code: 'custom', path: ['items'], message: `must be a list ${TEMPLATE_HINT}` });
  });
const forEachDoc = z.strictObject({ ...forEachFields, actions: nestedActionsDoc(LOOP_BODY) }).meta({
  id: 'ForEachAction',
  description: `Runs its actions once per item (at most ${MAX_LOOP_ITEMS}): \`items\` or \`records\`. Output: \`{ count, failed }\`.`,
});

/** The longest CODE source, in characters. */
const MAX_CODE_SOURCE = 100_000;

const code = z
  .strictObject({
    type: z.literal('CODE'),
    name: stepName.optional(),
    source: z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_CODE_SOURCE, `must be at most ${MAX_CODE_SOURCE} characters`)
      .meta({
        description:
          'The body of a JavaScript function of `input` (`{ trigger, record, steps, item, loop }`); what it returns (JSON, at most 256 KiB) is the output',
      }),
  })
  .meta({
    id: 'CodeAction',
    description:
      'Runs JavaScript in a sandbox: no network, files, process or timers, 64 MiB and 1 s of CPU. A throw, a timeout or too much memory fails the step (not retried).',
  });

const approval = z
  .strictObject({
    type: z.literal('APPROVAL'),
    name: stepName.optional(),
    assigneeId: ref('The member who answers (usr_…); may hold a template'),
    title: text(500)
      .optional()
      .meta({ description: 'The task’s title (default “Approve: <workflow name>”)' }),
    timeout: z
      .string()
      .max(100)
      .optional()
      .meta({ description: `How long to wait for an answer: ${DURATION_HINT}` }),
    onTimeout: z
      .enum(approvalTimeouts)
      .optional()
      .meta({ description: 'What a timeout does: REJECT (default), APPROVE or FAIL the step' }),
  })
  .superRefine((a, ctx) => {
    if (a.timeout !== undefined) {
      const problem = checkDuration(a.timeout);
      if (problem) ctx.addIssue({ code: 'custom', path: ['timeout'], message: problem });
    } else if (a.onTimeout !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['onTimeout'], message: 'goes with timeout' });
    }
  })
  .meta({
    id: 'ApprovalAction',
    description:
      'Creates a task for a member and waits (`WAITING`) for `POST /runs/{id}/approve` or `/reject`. Output: `{ approved, by, comment, at }`.',
  });

const actionSchemas = {
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
  BRANCH: branch,
  DELAY: delay,
  FOR_EACH: forEach,
  CODE: code,
  APPROVAL: approval,
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
  BRANCH: true,
  DELAY: true,
  FOR_EACH: true,
  CODE: true,
  APPROVAL: true,
};
void parametersAgree;

/**
 * The actions as one union on `type`, for the OpenAPI document: each action type is a
 * component of its own, and the document's `oneOf` with a `discriminator` tells a generated
 * client which parameters each type takes. The server checks a list with `actions` below,
 * which names the exact path of each problem.
 */
export const workflowActionSchema: z.ZodType = z
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
    branchDoc,
    delay,
    forEachDoc,
    code,
    approval,
  ])
  .meta({ id: 'WorkflowAction', unusedIO: 'input' });

const ACTION_ITEMS = { $ref: '#/components/schemas/WorkflowAction' };

type ActionOf<T extends ActionType> = z.infer<(typeof actionSchemas)[T]>;
export type Action = { [T in ActionType]: ActionOf<T> }[ActionType];

/** Where an action sits while a list is checked: its top-level index, depth, loop, path. */
interface Place {
  topIndex: number;
  depth: number;
  inLoop: boolean;
  path: (string | number)[];
}

/** What the check of one workflow has seen so far: actions counted, names taken and readable. */
interface TreeCheck {
  count: number;
  taken: Set<string>;
  /** Each problem with its path; a problem an action's schema found keeps its zod issue, so
   * the API words it as for any other field (`is required`, `must be one of …`). */
  issues: { path: (string | number)[]; message: string; issue?: z.core.$ZodIssue }[];
}

/** The keys of a nesting action that hold actions, with the place of their actions. */
const NESTED_KEYS: Record<string, readonly string[]> = { BRANCH: ['then', 'else'], FOR_EACH: ['actions'] };
/** Parameters whose text is not read for templates: names, code, the nested lists. */
const NOT_TEMPLATED = new Set(['type', 'name', 'then', 'else', 'actions', 'source']);

/**
 * Checks one list of the tree, and the lists inside it, against the action schemas: each
 * problem with its path. `visible` is the names the list's first action may read; the names
 * its actions add are readable by the actions after them (a loop's names only in its body).
 */
function checkList(list: unknown, place: Place, check: TreeCheck, visible: Set<string>): Action[] {
  const parsed: Action[] = [];
  if (!Array.isArray(list)) {
    check.issues.push({ path: place.path, message: 'must be a list of actions' });
    return parsed;
  }
  list.forEach((raw, i) => {
    const here = [...place.path, i];
    const topIndex = place.depth === 0 ? i : place.topIndex;
    check.count += 1;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      check.issues.push({ path: here, message: 'must be an action: { type, ...parameters }' });
      return;
    }
    const type = (raw as Record<string, unknown>).type;
    if (typeof type !== 'string' || !(actionTypes as readonly string[]).includes(type)) {
      check.issues.push({ path: [...here, 'type'], message: `must be one of ${actionTypes.join(', ')}` });
      return;
    }
    const result = actionSchemas[type as ActionType].safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues)
        check.issues.push({
          path: [...here, ...issue.path.map(String)],
          message: describeIssue(issue),
          issue,
        });
      return;
    }
    const action = { ...result.data } as Record<string, unknown>;
    const where = { topIndex, names: new Set(visible), inLoop: place.inLoop };
    for (const [key, value] of Object.entries(action)) {
      if (!NOT_TEMPLATED.has(key)) collectTemplateProblems(value, where, [...here, key], check.issues);
    }
    if (type === 'BRANCH') conditionProblems(action.if, [...here, 'if'], check.issues);
    const name = action.name as string | undefined;
    if (name !== undefined) {
      if (check.taken.has(name))
        check.issues.push({
          path: [...here, 'name'],
          message: `"${name}" names another step of the workflow`,
        });
      check.taken.add(name);
    }
    const nested = NESTED_KEYS[type];
    if (nested) {
      if (place.depth >= MAX_NESTING) {
        check.issues.push({ path: here, message: `actions nest at most ${MAX_NESTING} deep` });
      } else {
        const inLoop = place.inLoop || type === 'FOR_EACH';
        for (const key of nested) {
          if (action[key] === undefined) continue;
          // A loop's body reads its own names; the actions after the loop do not.
          const names = new Set(visible);
          const inner = { topIndex, depth: place.depth + 1, inLoop, path: [...here, key] };
          action[key] = checkList(action[key], inner, check, names);
          if (type === 'BRANCH') for (const n of names) visible.add(n);
        }
      }
    }
    if (name !== undefined) visible.add(name);
    parsed.push(action as Action);
  });
  return parsed;
}

/**
 * The action list: each action checked against its type's schema, the actions inside
 * branches and loops too (at most 50 in all, 5 deep), names unique, and every template
 * checked (known roots, `steps.<n>` and `steps.<name>` naming an earlier step), with the path
 * of each problem.
 */
const actions = z
  .array(z.record(z.string(), z.unknown()))
  .min(1, 'must hold at least one action')
  .transform((list, ctx) => {
    const check: TreeCheck = { count: 0, taken: new Set(), issues: [] };
    const parsed = checkList(list, { topIndex: 0, depth: 0, inLoop: false, path: [] }, check, new Set());
    if (check.count > MAX_ACTIONS)
      check.issues.unshift({
        path: [],
        message: `must hold at most ${MAX_ACTIONS} actions, counting those inside branches and loops (holds ${check.count})`,
      });
    for (const { path, message, issue } of check.issues) {
      const at = path.map(String);
      ctx.addIssue(
        issue ? ({ ...issue, path: at } as z.core.$ZodRawIssue) : { code: 'custom', path: at, message },
      );
    }
    return parsed;
  })
  .meta({
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      jsonSchema.items = ACTION_ITEMS;
    },
    description:
      'Run in order. Each is `{ type, ...parameters }`; BRANCH and FOR_EACH hold actions of their own (at most 50 actions in all, 5 deep). String parameters may hold `{{ trigger.body.* }}`, `{{ record.* }}`, `{{ steps.<index or name>.output.* }}` and, in a loop, `{{ item.* }}` and `{{ loop.index }}` templates, or the same written `[[ trigger.body.* ]]`, which n8n, Make and Zapier leave alone.',
  });

const trigger = z
  .strictObject({
    type: z.enum(triggerTypes).meta({
      description:
        'INCOMING_WEBHOOK (a URL to POST to), SCHEDULE (a cron expression), or an event kind (runs on every such event)',
    }),
    cron: z.string().max(200).optional().meta({
      description: 'For SCHEDULE: 5 fields (minute hour day-of-month month day-of-week), e.g. `0 9 * * 1-5`',
    }),
    timezone: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'For SCHEDULE: an IANA time zone (default UTC)' }),
  })
  .superRefine((t, ctx) => {
    if (t.type !== 'SCHEDULE') {
      for (const key of ['cron', 'timezone'] as const)
        if (t[key] !== undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'goes with a SCHEDULE trigger only' });
      return;
    }
    if (t.cron === undefined) {
      ctx.addIssue({ code: 'custom', path: ['cron'], message: 'is required for a SCHEDULE trigger' });
      return;
    }
    const problem = checkSchedule(t.cron, t.timezone ?? 'UTC');
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: [problem.startsWith('timezone') ? 'timezone' : 'cron'],
        message: problem,
      });
  })
  .meta({ id: 'WorkflowTriggerInput' });

const notifyOnFailure = z
  .array(idParam('A member (usr_…)'))
  .max(20, 'must name at most 20 members')
  .meta({ description: 'Members given a task when a run fails (docs/workflows.md, "Failures")' });

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
  notifyOnFailure: notifyOnFailure.optional(),
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
  notifyOnFailure: notifyOnFailure.optional(),
});

export const workflowIdInput = z.strictObject({ id: idParam('Workflow id') });
export const findWorkflowsInput = z.strictObject({ ...pagingInput });
export const findRunsInput = z.strictObject({
  id: idParam('Workflow id'),
  status: z.enum(runStatuses).optional(),
  ...pagingInput,
});
export const runIdInput = z.strictObject({ id: idParam('Run id') });
export const answerApprovalInput = z.strictObject({
  id: idParam('Run id'),
  comment: z.string().max(2000).optional().meta({ description: 'Kept in the step’s output' }),
});
export const testCodeInput = z.strictObject({
  source: code.shape.source,
  input: z.record(z.string(), z.unknown()).optional().meta({
    description: 'A sample `input` (`{ trigger, record, steps, item, loop }`); default `{}`',
  }),
});
export const testCodeOutput = z
  .object({
    ok: z.boolean(),
    output: z.unknown().meta({ description: 'What the code returned (when ok)' }),
    error: z
      .object({
        kind: z.enum(['syntax', 'throw', 'timeout', 'memory', 'output']),
        message: z.string(),
        line: z.number().int().nullable(),
      })
      .nullable()
      .meta({ description: 'Why it failed (when not ok), with the line of the source where known' }),
    durationMs: z.number(),
  })
  .meta({ id: 'CodeTestResult' });

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
        cron: z
          .string()
          .nullable()
          .meta({ description: 'For SCHEDULE: the cron expression; null otherwise' }),
        timezone: z
          .string()
          .nullable()
          .meta({ description: 'For SCHEDULE: the IANA time zone; null otherwise' }),
        nextRunAt: instantOutput()
          .nullable()
          .meta({ description: 'For an enabled SCHEDULE: its next firing; null otherwise' }),
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
    notifyOnFailure: z.array(z.string()).meta({ description: 'Members given a task when a run fails' }),
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
const workflowWarningOutput = z
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
    path: z.string().meta({
      description: 'Where the step is: `2`, `2.then.0` (a branch’s arm), `3.items.17.1` (item 17 of a loop)',
      example: '2.then.0',
    }),
    name: z.string().nullable().meta({ description: 'The action’s name, if it has one' }),
    index: z.number().int().meta({ description: 'The index of the action in its list' }),
    action: z.string(),
    status: z.enum(stepStatuses),
    input: z.unknown().meta({ description: 'The parameters after templates were rendered' }),
    output: z.unknown(),
    error: z.string().nullable(),
    attempts: z.number().int(),
    nextAttemptAt: instantOutput()
      .nullable()
      .meta({ description: 'When a failed step will be tried again (5 attempts in all); null otherwise' }),
    resumeAt: instantOutput()
      .nullable()
      .meta({ description: 'A waiting step’s end (DELAY) or timeout (APPROVAL); null otherwise' }),
    startedAt: instantOutput().nullable(),
    finishedAt: instantOutput().nullable(),
  })
  .meta({ id: 'RunStep' });

export const runOutput = z
  .object({
    id: z.string().meta({ example: 'run_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    workflowId: z.string(),
    status: z.enum(runStatuses),
    trigger: z.enum(['INCOMING_WEBHOOK', 'EVENT', 'SCHEDULE', 'RERUN']),
    resumeAt: instantOutput()
      .nullable()
      .meta({ description: 'While WAITING: when the run goes on (a delay’s end, an approval’s timeout)' }),
    input: z.unknown().meta({ description: 'The trigger payload: the incoming JSON body, or the event' }),
    recordId: z.string().nullable().meta({ description: 'The context record given by the trigger' }),
    steps: z.array(runStepOutput).meta({
      description:
        'Every step in the order it runs: those done with their results, those to come PENDING, the arm a branch did not take SKIPPED, and each item of a loop',
    }),
    error: z.string().nullable().meta({ description: 'Why the run failed' }),
    rerunOf: z.string().nullable(),
    createdAt: instantOutput(),
    startedAt: instantOutput().nullable(),
    finishedAt: instantOutput().nullable(),
  })
  .meta({ id: 'Run' });

export type RunOutput = z.infer<typeof runOutput>;
