export * from './create-call.ts';
export * from './find-calls.ts';
export * from './get-call.ts';
export * from './schemas.ts';
