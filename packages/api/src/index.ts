export * from './context.ts';
export * from './errors.ts';
export { hasProcedure } from './internals/trpc.ts';
export * from './openapi/document.ts';
export { TRIGGER_OPERATION_PATH, TRIGGER_PATH_TEMPLATE, TRIGGER_SERVER_PATH } from './openapi/trigger.ts';
export { decodeQueryValues, type QueryDecoder, queryDecoderOf } from './rest-input.ts';
export * from './rest-routes.ts';
export { type AppRouter, appRouter } from './routers/index.ts';
export * from './storable-input.ts';
export {
  type ApiMeta,
  createCallerFactory,
  missingScope,
  noteErrorRequestId,
  settingsProcedure,
} from './trpc.ts';
