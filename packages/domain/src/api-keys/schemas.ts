import { apiKeyScopes } from '@crm/db/schema';
import { z } from 'zod';
import { idParam, instantInput, instantOutput, nonBlankText } from '../shared/schemas.ts';

const scopeList = z.array(z.enum(apiKeyScopes));

export const apiKeyOutput = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: 'First characters of the secret, for recognising it' }),
    scopes: scopeList.meta({
      description:
        'What the key may do: `read`, `write` (which also deletes) or `<resource>:<action>` scopes (docs/api.md, "Scopes"), never more than its maker\'s role allows.',
    }),
    folderIds: z.array(z.string()).nullable().meta({
      description:
        'The folders whose records, comments, calls and links the key reaches; null for every folder. Records elsewhere are not found for it (404).',
    }),
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
  scopes: scopeList.min(1).max(apiKeyScopes.length).optional().meta({
    description:
      'Defaults to `read` and `write`. Each is `read` (every `<resource>:read`), `write` (every `<resource>:write` and `:delete`) or one `<resource>:<action>`; a scope your role does not hold is refused.',
  }),
  folderIds: z.array(idParam('Folder id')).min(1).max(100).nullish().meta({
    description:
      'Limit the key to these folders of the workspace; omitted or null: every folder. A key limited to folders cannot hold `webhooks:write`, `workflows:read` or `workflows:write`.',
  }),
  expiresAt: instantInput().nullish(),
});
