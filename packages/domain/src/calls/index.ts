export * from './create-call.ts';
export * from './find-calls.ts';
export * from './schemas.ts';
