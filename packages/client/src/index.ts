export { type CreateClientOptions, type CrmClient, createClient, serializeQuery } from './client.ts';
export { ApiError } from './errors.ts';
export { type ListInit, type ListItem, type ListPath, paginate } from './paginate.ts';
export { type FetchLike, type RetryOptions, retryAfterMs, withRetry } from './retry.ts';
export type { components, operations, paths, webhooks } from './schema.d.ts';
export { hmacSha256Hex, type VerifyWebhookOptions, verifyWebhook, type WebhookEvent } from './webhooks.ts';
