export * from './accept-trigger.ts';
export * from './find-workflows.ts';
export * from './runs.ts';
export * from './save-workflow.ts';
export * from './schemas.ts';
export * from './serialize.ts';
export * from './start-event-workflows.ts';
export * from './templates.ts';
