/**
 * Saved views of the records table (docs/web-app.md, "Saved views"): a signed-in user's named
 * columns, sort and filters for one folder. Only their owner lists, changes or deletes them;
 * another user's view, or one of another workspace, is not found.
 */

export * from './create-saved-view.ts';
export * from './delete-saved-view.ts';
export * from './find-saved-views.ts';
export * from './schemas.ts';
export * from './update-saved-view.ts';
