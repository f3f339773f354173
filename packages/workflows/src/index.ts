export * from './condition.ts';
export * from './errors.ts';
export * from './execute-run.ts';
export * from './http-action.ts';
export * from './retry.ts';
