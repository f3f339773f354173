export * from './create-deal.ts';
export * from './deal-links.ts';
export * from './delete-deal.ts';
export * from './find-deals.ts';
export * from './find-record-deals.ts';
export * from './get-deal.ts';
export * from './schemas.ts';
export * from './update-deal.ts';
