import { randomBytes } from 'node:crypto';
import { type Database, schema } from '@crm/db';
import type { z } from 'zod';
import { rightsOf } from '../api-keys/scopes.ts';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { sealSecret } from '../shared/secret-box.ts';
import { storedId } from './store.ts';
import { APP_GRANT, type registerAppInput, type WorkspaceAppOutput } from './workspace-apps.ts';

/**
 * Registers an app of the workspace (workspace-apps.ts): a confidential client of the OAuth
 * server with the client credentials grant and the scopes chosen, bound to the workspace and
 * the admin registering it. Its secret is made here, kept sealed (the server opens it to
 * compare, store.ts) and returned this once. Audited as `oauth_app.registered`. Who may
 * is the settings' rule (an owner or admin: `settingsProcedure`), as for API keys.
 */
export async function registerApp(
  db: Database,
  actor: Actor,
  input: z.output<typeof registerAppInput>,
): Promise<WorkspaceAppOutput & { clientSecret: string }> {
  const rights = rightsOf(actor.role);
  const beyond = input.scopes.filter((scope) => !rights.has(scope as never));
  if (beyond.length > 0) throw invalid('scopes', `${beyond.join(', ')} is beyond your role`);
  const scopes = [...new Set(input.scopes)].sort();
  const clientId = `app_${randomBytes(16).toString('base64url')}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const createdAt = new Date();
  await db.transaction(async (tx) => {
    await tx.insert(schema.oauthModels).values({
      model: 'Client',
      id: storedId(clientId),
      payload: {
        client_id: clientId,
        client_secret: sealSecret(clientSecret),
        client_name: input.name,
        grant_types: [APP_GRANT],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: scopes.join(' '),
        created_by_name: actor.userName,
      },
      workspaceId: actor.workspaceId,
      userId: actor.userId,
      createdAt,
    });
    await audit(tx, actor, {
      action: 'oauth_app.registered',
      target: { type: 'oauth_client', id: clientId },
      details: { name: input.name, scopes },
    });
  });
  return {
    clientId,
    clientSecret,
    name: input.name,
    scopes,
    createdAt: createdAt.toISOString(),
    createdBy: { id: actor.userId, name: actor.userName },
  };
}
