export * from './client.ts';
export * from './distribution.ts';
export * from './embedded.ts';
export * from './internals/drizzle.ts';
export * from './listen.ts';
export * from './migrate.ts';
export * from './named-statement.ts';
export * as schema from './schema/index.ts';
export * from './tenancy.ts';
