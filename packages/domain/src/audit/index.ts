export * from './append-audit.ts';
export * from './audit-actions.ts';
export * from './find-audit-log.ts';
export * from './schemas.ts';
