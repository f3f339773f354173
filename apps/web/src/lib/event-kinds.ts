/**
 * The event kinds a webhook or an automation can subscribe to (contract §6), in the order
 * the settings pages list them. The server's list is `eventTypes` in packages/domain; a test
 * of the server keeps the two equal.
 */
export const EVENT_KINDS = [
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
