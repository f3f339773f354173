export * from './apply-link-changes.ts';
export * from './expand.ts';
export * from './get-link.ts';

export * from './link-record.ts';
export * from './link-records.ts';
export * from './link-tallies.ts';
export * from './participants.ts';
export * from './schemas.ts';
export * from './unlink-record.ts';
export * from './unlink-records.ts';
