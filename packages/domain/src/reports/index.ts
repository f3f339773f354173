export * from './report-automation-runs.ts';
export * from './report-webhook-health.ts';
export * from './report-won-lost.ts';
export * from './schemas.ts';
