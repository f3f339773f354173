export * from './api-keys.ts';
export * from './events.ts';
export * from './folders.ts';
export * from './idempotency.ts';
export * from './pipelines.ts';
export * from './rate-limits.ts';
export * from './records.ts';
export * from './workspaces.ts';
