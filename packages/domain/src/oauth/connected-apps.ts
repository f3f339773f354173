import { z } from 'zod';
import { isScope } from '../api-keys/scopes.ts';
import { instantOutput } from '../shared/schemas.ts';

export const connectedAppOutput = z
  .object({
    grantId: z.string(),
    clientId: z.string(),
    clientName: z.string(),
    scopes: z.array(z.string()).meta({ description: 'What the app may do, as you allowed it.' }),
    authorizedAt: instantOutput(),
    expiresAt: instantOutput().nullable(),
  })
  .meta({ id: 'ConnectedApp' });

export type ConnectedAppOutput = z.infer<typeof connectedAppOutput>;

export const revokeConnectedAppInput = z.strictObject({ grantId: z.string().min(1).max(200) });

/** The scopes of a grant: those of the resources it covers that the service knows. */
export function grantScopes(payload: Record<string, unknown>): string[] {
  const resources = (payload.resources ?? {}) as Record<string, string>;
  const scopes = new Set<string>();
  for (const value of Object.values(resources))
    for (const word of String(value).split(' ')) if (isScope(word)) scopes.add(word);
  return [...scopes].sort();
}
