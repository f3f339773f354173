export * from './access.ts';
export * from './connected-apps.ts';
export * from './store.ts';
