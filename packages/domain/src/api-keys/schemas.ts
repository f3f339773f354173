import { apiKeyScopes } from '@crm/db/schema';
import { z } from 'zod';
import { instantInput, instantOutput, nonBlankText } from '../shared/schemas.ts';

export const apiKeyOutput = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: 'First characters of the secret, for recognising it' }),
    scopes: z.array(z.enum(apiKeyScopes)),
    userId: z.string().meta({ description: 'The user the key acts as' }),
    expiresAt: instantOutput().nullable(),
    revokedAt: instantOutput().nullable(),
    lastUsedAt: instantOutput().nullable(),
    createdAt: instantOutput(),
  })
  .meta({ id: 'ApiKey' });

export type ApiKeyOutput = z.infer<typeof apiKeyOutput>;

export const createApiKeyInput = z.strictObject({
  name: nonBlankText(200),
  scopes: z
    .array(z.enum(apiKeyScopes))
    .min(1)
    .optional()
    .meta({ description: 'Defaults to both read and write' }),
  expiresAt: instantInput().nullish(),
});
