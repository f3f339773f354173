export * from './address-guard.ts';
export * from './deliver.ts';
export * from './dispatcher.ts';
export * from './send-request.ts';
export * from './sign.ts';
