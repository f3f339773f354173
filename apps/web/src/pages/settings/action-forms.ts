import {
  type ActionParameter,
  type ActionType,
  actionParameters,
  approvalTimeouts,
  conditionOperators,
  httpMethods,
  taskPriorities,
  taskTypes,
} from '@crm/constants';

/**
 * What the action builder offers for each action type (docs/workflows.md, "Actions"): one
 * descriptor per parameter, so nobody types JSON. The parameter names are checked against
 * `actionParameters` of `@crm/constants`, which the domain's schemas are checked against too.
 */

export const LABELS: Record<ActionType, string> = {
  CREATE_RECORD: 'Create a record',
  UPDATE_RECORD: 'Update the record',
  ASSIGN_OWNER: 'Assign an owner',
  MOVE_DEAL_STAGE: 'Move a deal to a stage',
  CREATE_DEAL: 'Create a deal',
  CREATE_TASK: 'Create a task',
  ADD_COMMENT: 'Add a comment',
  LINK_RECORDS: 'Link to another record',
  HTTP_REQUEST: 'Call a URL (HTTP request)',
  CONDITION: 'Continue only if…',
  BRANCH: 'Branch: if… then… else…',
  DELAY: 'Wait',
  FOR_EACH: 'For each item…',
  CODE: 'Run code (JavaScript)',
  APPROVAL: 'Ask a member for approval',
};

type Kind =
  | 'text'
  | 'textarea'
  | 'number'
  | 'select'
  | 'folder'
  | 'pipeline'
  | 'stage'
  | 'member'
  | 'pairs'
  | 'check'
  | 'timezone'
  /** A list of actions of its own (a branch's arms, a loop's body), built with the same builder. */
  | 'actions'
  /** A BRANCH's condition: a comparison, or all / any / not groups of them. */
  | 'condition'
  /** A CODE step's source, with its test run. */
  | 'code'
  /** A FOR_EACH's records query: a folder, a search, a filter and a sort. */
  | 'records';

/** How the form shows one parameter; whether it is required comes from `actionParameters`. */
interface Param<T extends ActionType> {
  name: ActionParameter<T>;
  label: string;
  kind: Kind;
  hint?: string;
  options?: readonly string[];
  /** For `check`: the value sent when ticked (default `true`). */
  value?: string;
  /** Shown only in this mode of the action (MODES). */
  mode?: string;
  /** Required in its mode, though the schema, which takes one mode or the other, makes it optional. */
  needed?: true;
}

/** A parameter of any type, with whether the action requires it. */
export type FormParam = Omit<Param<ActionType>, 'name'> & { name: string; required: boolean };

const TEMPLATE = 'May use templates such as {{ trigger.body.email }} or [[ trigger.body.email ]]';
const DURATION = 'An ISO 8601 duration: PT30M, PT2H, P3D';

/**
 * What an APPROVAL does when nobody answers in time. The domain's `approvalTimeouts`; the web
 * app takes nothing of the domain but record-values, and `@crm/constants` does not hold it yet.
 */
const APPROVAL_TIMEOUTS = approvalTimeouts;

/** The parameters each form offers, in order; `name` (every type's) is added by `paramsOf`. */
const FORMS: { [T in ActionType]: Param<T>[] } = {
  CREATE_RECORD: [
    { name: 'folderId', label: 'Folder', kind: 'folder' },
    { name: 'title', label: 'Title', kind: 'text', hint: TEMPLATE },
    { name: 'email', label: 'Email', kind: 'text' },
    { name: 'phone', label: 'Phone', kind: 'text' },
    {
      name: 'upsertBy',
      label: 'Update the record with the same email instead of adding one',
      kind: 'check',
      value: 'email',
    },
    { name: 'data', label: 'Custom fields', kind: 'pairs', hint: 'Field key and value' },
  ],
  UPDATE_RECORD: [
    { name: 'title', label: 'Title', kind: 'text', hint: TEMPLATE },
    { name: 'email', label: 'Email', kind: 'text' },
    { name: 'phone', label: 'Phone', kind: 'text' },
    { name: 'data', label: 'Custom fields', kind: 'pairs', hint: 'Field key and value' },
  ],
  ASSIGN_OWNER: [{ name: 'ownerId', label: 'Owner', kind: 'member' }],
  MOVE_DEAL_STAGE: [
    {
      name: 'dealId',
      label: 'Deal id',
      kind: 'text',
      hint: 'e.g. {{ steps.1.output.id }} or [[ steps.1.output.id ]]',
    },
    { name: 'stageId', label: 'Stage', kind: 'stage' },
  ],
  CREATE_DEAL: [
    { name: 'pipelineId', label: 'Pipeline', kind: 'pipeline' },
    { name: 'stageId', label: 'Stage (default: the first)', kind: 'stage' },
    { name: 'title', label: 'Title', kind: 'text', hint: TEMPLATE },
    { name: 'amount', label: 'Amount', kind: 'number', hint: 'A number or a template' },
  ],
  CREATE_TASK: [
    { name: 'title', label: 'Title', kind: 'text', hint: TEMPLATE },
    { name: 'dueInDays', label: 'Due in days', kind: 'number' },
    { name: 'assigneeId', label: 'Assignee', kind: 'member' },
    { name: 'priority', label: 'Priority', kind: 'select', options: taskPriorities },
    { name: 'taskType', label: 'Type', kind: 'select', options: taskTypes },
  ],
  ADD_COMMENT: [{ name: 'text', label: 'Comment', kind: 'textarea', hint: TEMPLATE }],
  LINK_RECORDS: [
    { name: 'field', label: 'Relation field (key)', kind: 'text', hint: 'e.g. company' },
    { name: 'to', label: 'Record to link', kind: 'text', hint: TEMPLATE },
    { name: 'by', label: 'The record is named by', kind: 'select', options: ['id', 'email', 'title'] },
    { name: 'label', label: 'Link label', kind: 'text' },
  ],
  HTTP_REQUEST: [
    { name: 'method', label: 'Method', kind: 'select', options: httpMethods },
    { name: 'url', label: 'URL', kind: 'text' },
    { name: 'headers', label: 'Headers', kind: 'pairs', hint: 'Name and value' },
    { name: 'body', label: 'JSON body fields', kind: 'pairs', hint: 'Key and value (not with GET)' },
  ],
  CONDITION: [
    {
      name: 'left',
      label: 'Value',
      kind: 'text',
      hint: 'e.g. {{ trigger.body.country }} or [[ trigger.body.country ]]',
    },
    { name: 'operator', label: 'Operator', kind: 'select', options: conditionOperators },
    { name: 'right', label: 'Compared with', kind: 'text' },
  ],
  BRANCH: [
    { name: 'if', label: 'If', kind: 'condition' },
    { name: 'then', label: 'Then', kind: 'actions', hint: 'Run when the condition holds' },
    { name: 'else', label: 'Else', kind: 'actions', hint: 'Run when it does not' },
  ],
  DELAY: [
    {
      name: 'for',
      label: 'Duration',
      kind: 'text',
      hint: `${DURATION} (1 second to 365 days)`,
      mode: 'for',
      needed: true,
    },
    {
      name: 'until',
      label: 'Until',
      kind: 'text',
      hint: 'A date (2026-12-01), an instant with its offset (2026-12-01T08:00:00Z) or a template',
      mode: 'until',
      needed: true,
    },
    {
      name: 'at',
      label: 'At (local time, HH:MM)',
      kind: 'text',
      hint: 'With a date; default 00:00',
      mode: 'until',
    },
    {
      name: 'timezone',
      label: 'Time zone',
      kind: 'timezone',
      hint: 'With a date; default UTC',
      mode: 'until',
    },
  ],
  FOR_EACH: [
    {
      name: 'items',
      label: 'Items',
      kind: 'text',
      hint: 'A template giving a list, e.g. {{ trigger.body.lines }}',
      mode: 'items',
      needed: true,
    },
    { name: 'records', label: 'Records', kind: 'records', mode: 'records' },
    { name: 'continueOnError', label: 'Go on with the next item when a step fails', kind: 'check' },
    {
      name: 'actions',
      label: 'Each',
      kind: 'actions',
      hint: 'Run for each item: templates read {{ item.* }} and {{ loop.index }}',
    },
  ],
  CODE: [{ name: 'source', label: 'JavaScript', kind: 'code' }],
  APPROVAL: [
    { name: 'assigneeId', label: 'Approver', kind: 'member' },
    { name: 'title', label: 'Task title', kind: 'text', hint: 'Default “Approve: <automation name>”' },
    { name: 'timeout', label: 'Timeout', kind: 'text', hint: DURATION },
    { name: 'onTimeout', label: 'On timeout', kind: 'select', options: APPROVAL_TIMEOUTS },
  ],
};

/**
 * Every action's `name`. Its label avoids the word "name", which the automation's own Name
 * field has: one label per input, so a label names one field.
 */
const NAME: Omit<FormParam, 'required'> = {
  name: 'name',
  label: 'Step key',
  kind: 'text',
  hint: 'Later steps read {{ steps.<key>.output.* }}; a-z, 0-9, _',
};

/** The types whose parameters come in modes, one mode shown at a time. */
export const MODES: Partial<
  Record<ActionType, { label: string; options: { value: string; label: string }[] }>
> = {
  DELAY: {
    label: 'Wait',
    options: [
      { value: 'for', label: 'For a duration' },
      { value: 'until', label: 'Until a date or a moment' },
    ],
  },
  FOR_EACH: {
    label: 'Go through',
    options: [
      { value: 'items', label: 'A list (a template)' },
      { value: 'records', label: 'The records of a folder' },
    ],
  },
};

/** The mode a new action of `type` starts in ('' for a type without modes). */
export function defaultMode(type: ActionType): string {
  return MODES[type]?.options[0]?.value ?? '';
}

/** Type `type`'s form parameters, each with whether the action requires it. */
export function paramsOf(type: ActionType): FormParam[] {
  const required: Record<string, boolean> = actionParameters[type];
  return [...(FORMS[type] as Omit<FormParam, 'required'>[]), NAME].map((param) => ({
    ...param,
    required: required[param.name] === true || param.needed === true,
  }));
}

/** The parameters shown in the action's current mode. */
export function visibleParams(type: ActionType, mode: string): FormParam[] {
  return paramsOf(type).filter((param) => param.mode === undefined || param.mode === mode);
}

/** The label of a nested list's steps: "Step 3 › Then 1". */
export function listLabel(list: string): string {
  return list === 'then' ? 'Then' : list === 'else' ? 'Else' : 'Each';
}
