export * from './create-comment.ts';
export * from './find-comments.ts';
export * from './schemas.ts';
