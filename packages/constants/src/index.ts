/**
 * The fixed vocabularies of the service that both the server and the web app need at
 * runtime: event kinds, workflow action types and their enumerated parameters, task enums.
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
  'deal.created',
  'deal.updated',
  'deal.stage_changed',
  'task.created',
  'task.completed',
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
  'HTTP_REQUEST',
  'CONDITION',
] as const;
export type ActionType = (typeof actionTypes)[number];

/** A CONDITION action's operators. */
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
