export * from './automation-runs-report.ts';
export * from './schemas.ts';
export * from './webhook-health-report.ts';
export * from './won-lost-report.ts';
