export * from './find-history.ts';
export * from './revert-history.ts';
export * from './schemas.ts';
