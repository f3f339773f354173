export * from './find-events.ts';
export * from './payloads.ts';
export * from './schemas.ts';
