export * from './apply-config.ts';
export * from './get-config.ts';
export * from './plan-config.ts';
export * from './schemas.ts';
