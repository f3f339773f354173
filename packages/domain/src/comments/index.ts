export * from './create-comment.ts';
export * from './find-comments.ts';
export * from './get-comment.ts';
export * from './schemas.ts';
