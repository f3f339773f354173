export * from './change-pipeline.ts';
export * from './find-pipelines.ts';
export * from './schemas.ts';
export * from './summarize-pipeline.ts';
