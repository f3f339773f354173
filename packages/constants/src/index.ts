/**
 * The fixed vocabularies of the service that both the server and the web app need at
 * runtime: event kinds, workflow action types and their parameters, task enums.
 * Defined once here; `@crm/db`, `@crm/domain` and `apps/web` import them, so a kind added here
 * reaches the API's schemas, the OpenAPI document and the settings pages together. Nothing
 * else lives here: this package depends on nothing.
 */

/** The event kinds a webhook or an automation can subscribe to (docs/webhooks.md, "Event kinds"), in the order pages list them. */
export const eventTypes = [
  'record.created',
  'record.updated',
  'record.trashed',
  'record.restored',
  'record.linked',
  'record.unlinked',
  'deal.created',
  'deal.updated',
  'deal.stage_changed',
  'task.created',
  'task.updated',
  'task.completed',
  'workflow.run_failed',
  'job.completed',
  'job.failed',
] as const;
export type EventType = (typeof eventTypes)[number];

/** A workflow's action types (docs/workflows.md, "Actions"), in the order the action builder offers them. */
export const actionTypes = [
  'CREATE_RECORD',
  'UPDATE_RECORD',
  'ASSIGN_OWNER',
  'MOVE_DEAL_STAGE',
  'CREATE_DEAL',
  'CREATE_TASK',
  'ADD_COMMENT',
  'LINK_RECORDS',
  'HTTP_REQUEST',
  'CONDITION',
  'BRANCH',
  'DELAY',
  'FOR_EACH',
  'CODE',
  'APPROVAL',
] as const;
export type ActionType = (typeof actionTypes)[number];

/**
 * Each action type's parameters beside `type`: `true` for a required one, `false` for an
 * optional one (docs/workflows.md, "Actions"). The domain's action schemas are checked against
 * this table when the domain compiles, and the action builder takes its parameter names and
 * "(optional)" marks from it, so the two cannot drift apart.
 */
export const actionParameters = {
  CREATE_RECORD: {
    folderId: true,
    title: true,
    email: false,
    phone: false,
    data: false,
    ownerId: false,
    upsertBy: false,
    name: false,
  },
  UPDATE_RECORD: { recordId: false, title: false, email: false, phone: false, data: false, name: false },
  ASSIGN_OWNER: { ownerId: true, recordId: false, name: false },
  MOVE_DEAL_STAGE: { dealId: true, stageId: true, name: false },
  CREATE_DEAL: {
    pipelineId: true,
    stageId: false,
    title: false,
    amount: false,
    currency: false,
    closeDate: false,
    data: false,
    recordId: false,
    name: false,
  },
  CREATE_TASK: {
    title: true,
    dueAt: false,
    dueInDays: false,
    assigneeId: false,
    priority: false,
    taskType: false,
    recordId: false,
    name: false,
  },
  ADD_COMMENT: { text: true, recordId: false, name: false },
  LINK_RECORDS: { field: true, to: true, by: false, label: false, recordId: false, name: false },
  HTTP_REQUEST: { method: false, url: true, headers: false, body: false, name: false },
  CONDITION: { left: true, operator: true, right: false, name: false },
  BRANCH: { if: true, then: true, else: false, name: false },
  DELAY: { for: false, until: false, at: false, timezone: false, name: false },
  FOR_EACH: { items: false, records: false, actions: true, continueOnError: false, name: false },
  CODE: { source: true, name: false },
  APPROVAL: { assigneeId: true, title: false, timeout: false, onTimeout: false, name: false },
} as const satisfies Record<ActionType, Record<string, boolean>>;

/** The parameter names of action type `T`. */
export type ActionParameter<T extends ActionType> = keyof (typeof actionParameters)[T] & string;

/** What an APPROVAL's timeout does (docs/workflows.md, "APPROVAL"). */
export const approvalTimeouts = ['REJECT', 'APPROVE', 'FAIL'] as const;

/** A CONDITION action's operators (and a BRANCH condition's leaves). */
export const conditionOperators = [
  'EQUALS',
  'NOT_EQUALS',
  'CONTAINS',
  'NOT_CONTAINS',
  'EXISTS',
  'NOT_EXISTS',
  'GREATER_THAN',
  'LESS_THAN',
] as const;

/** An HTTP_REQUEST action's methods. */
export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const taskStatuses = ['OPEN', 'DONE'] as const;
export const taskPriorities = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] as const;
export const taskTypes = ['TODO', 'CALL', 'EMAIL', 'MEETING'] as const;
export const taskRecurrences = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;

/**
 * A list filter's operators by the kind of field (docs/api.md, "Filters, sorts and counts",
 * "Operators"): the domain refuses any other, and the records table's filter form offers
 * exactly these.
 */
export const filterOperatorsByKind = {
  text: ['eq', 'ne', 'in', 'contains', 'empty'],
  email: ['eq', 'ne', 'in', 'contains', 'empty'],
  id: ['eq', 'ne', 'in', 'empty'],
  instant: ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'empty'],
  number: ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'empty'],
  date: ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'empty'],
  enum: ['eq', 'ne', 'in', 'empty'],
  boolean: ['eq', 'ne', 'empty'],
  multi: ['eq', 'ne', 'in', 'empty'],
  relation: ['eq', 'ne', 'in', 'empty'],
  json: ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'contains', 'empty'],
} as const;
export type FilterFieldKind = keyof typeof filterOperatorsByKind;

/** The kind of filter field a custom field of each type is (its operators above). */
export const filterKindOfFieldType = {
  TEXT: 'text',
  URL: 'text',
  EMAIL: 'email',
  NUMBER: 'number',
  DATE: 'date',
  SELECT: 'enum',
  BOOLEAN: 'boolean',
  MULTI_SELECT: 'multi',
  RELATION: 'relation',
} as const satisfies Record<string, FilterFieldKind>;

/**
 * The records table's own columns (docs/web-app.md, "Records table") with their filter kind;
 * a saved view shows these and the folder's custom fields (`data.<key>`).
 */
export const recordColumns = {
  title: 'text',
  email: 'email',
  phone: 'text',
  ownerId: 'id',
  createdAt: 'instant',
  updatedAt: 'instant',
} as const satisfies Record<string, FilterFieldKind>;
export type RecordColumn = keyof typeof recordColumns;

/** Limits of a saved view of the records table. */
export const savedViewLimits = { name: 100, columns: 60, filters: 20, perUser: 200 } as const;

/**
 * What an API key may do (docs/api.md, "Scopes"): `<resource>:<action>` for the resources
 * below, each with the actions it has. `read` and `write` are shorthands for every resource;
 * `write` also grants `delete`, as a key made before scopes could delete with it.
 */
export const scopeResources = {
  records: ['read', 'write', 'delete'],
  folders: ['read', 'write', 'delete'],
  comments: ['read', 'write'],
  calls: ['read', 'write'],
  pipelines: ['read', 'write', 'delete'],
  deals: ['read', 'write', 'delete'],
  tasks: ['read', 'write', 'delete'],
  webhooks: ['read', 'write', 'delete'],
  workflows: ['read', 'write', 'delete'],
  events: ['read'],
  audit: ['read'],
  jobs: ['read', 'write'],
  config: ['read', 'write'],
} as const satisfies Record<string, readonly ('read' | 'write' | 'delete')[]>;
export type ScopeResource = keyof typeof scopeResources;
export type Scope = {
  [R in ScopeResource]: `${R}:${(typeof scopeResources)[R][number]}`;
}[ScopeResource];

/** Every scope, resource by resource in the order above. */
export const allScopes: readonly Scope[] = Object.entries(scopeResources).flatMap(([resource, actions]) =>
  actions.map((action) => `${resource}:${action}` as Scope),
);

/** The two scopes every key had before scopes were per resource, kept as shorthands. */
const scopeShorthands = ['read', 'write'] as const;
type ScopeShorthand = (typeof scopeShorthands)[number];

/** What a key's `scopes` may list: shorthands and scopes. */
export type KeyScope = ScopeShorthand | Scope;
export const keyScopes: readonly KeyScope[] = [...scopeShorthands, ...allScopes];

/**
 * Resources only an owner or admin manages: a MEMBER holds none of their scopes, nor do the
 * keys a MEMBER made, whatever they list (docs/api.md, "Scopes").
 */
export const managerResources: readonly ScopeResource[] = ['webhooks', 'workflows', 'audit', 'config'];

/**
 * Scopes a key limited to folders never holds (docs/api.md, "Scopes"): what they allow reaches
 * the records of every folder. A subscription receives the events of every folder; a workflow
 * acts with all the rights of the member who made it; a workflow's runs show the events that
 * started them and what their steps read. The configuration document holds the workspace's
 * webhooks and workflows.
 */
export const workspaceWideScopes: readonly Scope[] = [
  'webhooks:write',
  'workflows:read',
  'workflows:write',
  'config:read',
  'config:write',
];

/**
 * What the audit log records (docs/api.md, "Audit log"): changes to who may do what and to the
 * shape of the data (keys, webhooks, workflows, members, folder fields), sign-ins and failed
 * sign-ins, exports and purges.
 */
export const auditActions = [
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'workflow.created',
  'workflow.updated',
  'workflow.enabled',
  'workflow.disabled',
  'workflow.deleted',
  'workflow.secret_rotated',
  'run.cancelled',
  'run.approved',
  'run.rejected',
  'invitation.created',
  'invitation.revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'oauth_app.authorized',
  'oauth_app.revoked',
  'oauth_app.registered',
  'oauth_app.removed',
  'user.signed_in',
  'user.sign_in_failed',
  'records.exported',
  'records.purged',
  'job.created',
  'job.cancelled',
  'folder.created',
  'folder.renamed',
  'folder.field_added',
  'folder.field_changed',
  'folder.field_removed',
  'config.applied',
  'sandbox.created',
  'sandbox.deleted',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** Who made a change, as events, history and the audit log name it (docs/api.md, "History and provenance"). */
export const actorTypes = ['user', 'apiKey', 'workflow', 'import', 'mcp', 'system', 'job', 'app'] as const;
export type ActorType = (typeof actorTypes)[number];

/** Through which surface a change came. */
export const changeSources = ['web', 'rest', 'trpc', 'mcp', 'workflow', 'import', 'system', 'job'] as const;
export type ChangeSource = (typeof changeSources)[number];
