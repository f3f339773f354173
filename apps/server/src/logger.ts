import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines on stdout; each request's lines carry its `requestId`. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service: 'crm' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
