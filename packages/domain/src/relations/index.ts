export * from './apply-link-changes.ts';
export * from './expand.ts';
export * from './link-records.ts';
export * from './link-tallies.ts';
export * from './participants.ts';
export * from './schemas.ts';
