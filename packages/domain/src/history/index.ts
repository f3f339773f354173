export * from './find-history.ts';
export * from './revert-history-entry.ts';
export * from './schemas.ts';
