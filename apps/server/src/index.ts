export { type AppDeps, createApp } from './app.ts';
export { type Env, readEnv } from './env.ts';
export { createLogger, type Logger } from './logger.ts';
export { type Service, startService, VERSION } from './service.ts';
