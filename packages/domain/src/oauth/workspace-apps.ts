import { allScopes } from '@crm/constants';
import { z } from 'zod';
import { instantOutput, nonBlankText } from '../shared/schemas.ts';

/**
 * An app an admin registers for the workspace in the settings area (docs/apps.md, "Apps of
 * the workspace"): a confidential OAuth client that gets tokens for itself with the client
 * credentials grant, no user in the loop. It acts with the scopes it was registered with,
 * within the rights of the admin who registered it, for as long as that admin is a member.
 */
export const APP_GRANT = 'client_credentials';

export const registerAppInput = z.strictObject({
  name: nonBlankText(100).meta({ description: 'How the app is shown in settings and in history.' }),
  scopes: z
    .array(z.enum(allScopes as [string, ...string[]]))
    .min(1, 'name at least one scope')
    .max(allScopes.length)
    .meta({ description: 'What the app may do: some of the service’s scopes (docs/api.md, "Scopes").' }),
});

export const removeAppInput = z.strictObject({ clientId: z.string().min(1).max(200) });

export const workspaceAppOutput = z
  .object({
    clientId: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    createdAt: instantOutput(),
    createdBy: z.object({ id: z.string(), name: z.string() }),
  })
  .meta({ id: 'WorkspaceApp' });

export type WorkspaceAppOutput = z.infer<typeof workspaceAppOutput>;

/** A registered app with its secret, which is shown this once. */
export const registeredAppOutput = workspaceAppOutput
  .extend({
    clientSecret: z.string().meta({ description: 'Shown once: keep it where the app keeps its secrets.' }),
  })
  .meta({ id: 'RegisteredApp' });
