export * from './access.ts';
export * from './connected-apps.ts';
export * from './find-connected-apps.ts';
export * from './revoke-connected-app.ts';
export * from './store.ts';
