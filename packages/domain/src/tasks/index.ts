export * from './create-task.ts';
export * from './delete-task.ts';
export * from './find-tasks.ts';
export * from './get-task.ts';
export * from './load-task.ts';
export * from './schemas.ts';
export * from './task-record-links.ts';
export * from './update-task.ts';
