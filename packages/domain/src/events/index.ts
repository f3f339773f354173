export * from './find-events.ts';
export * from './schemas.ts';
