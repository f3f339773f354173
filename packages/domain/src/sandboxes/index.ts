export * from './create-sandbox.ts';
export * from './delete-sandbox.ts';
export * from './find-sandboxes.ts';
export * from './get-sandbox.ts';
export * from './open-workspace.ts';
export * from './schemas.ts';
