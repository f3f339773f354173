import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import type { ApiKeyScope } from '@crm/db/schema';
import { and, eq, inArray } from 'drizzle-orm';
import { appendAudit } from '../audit/append-audit.ts';
import { type Actor, type Provenance, systemProvenance } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { sandboxPolicyOf } from '../shared/sandbox-policy.ts';
import type { ApiKeyOutput } from './schemas.ts';
import { scopesBeyond, scopesBeyondFolders } from './scopes.ts';
import { displayPrefix, generateSecret, hashSecret, KEY_PREFIX, TEST_KEY_PREFIX } from './secrets.ts';
import { serializeApiKey } from './serialize.ts';

export interface CreateApiKeyInput {
  workspaceId: string;
  userId: string;
  name: string;
  scopes?: ApiKeyScope[] | undefined;
  folderIds?: string[] | null | undefined;
  expiresAt?: string | null | undefined;
}

/**
 * Creates a key; the secret is returned here once and only its hash is stored (docs/api.md,
 * "Keys and limits"). A key never gets more than its maker has: a scope the maker's role does
 * not hold is refused (400 naming it), and `read`/`write` stand for what the role holds. A key
 * limited to folders names folders of the workspace, and cannot ask for a scope whose reach is
 * the whole workspace (`workspaceWideScopes`, 400 naming `scopes`); its `write` stands for the
 * rest.
 */
export async function createApiKey(
  db: Database,
  input: CreateApiKeyInput,
  by: Actor | Provenance = systemProvenance('service'),
): Promise<{ key: ApiKeyOutput; secret: string }> {
  if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now()) {
    throw invalid('expiresAt', 'must be in the future');
  }
  const sandbox = await sandboxPolicyOf(db, input.workspaceId);
  const secret = generateSecret(sandbox ? TEST_KEY_PREFIX : KEY_PREFIX);
  const scopes = [...new Set(input.scopes ?? ['read', 'write'])].sort() as ApiKeyScope[];
  const folderIds = input.folderIds ? [...new Set(input.folderIds)].sort() : null;
  const [row] = await db.transaction(async (tx) => {
    const member = await tx
      .select({ userId: schema.memberships.userId, role: schema.memberships.role })
      .from(schema.memberships)
      .where(
        and(
          eq(schema.memberships.workspaceId, input.workspaceId),
          eq(schema.memberships.userId, input.userId),
        ),
      );
    if (member.length === 0) throw invalid('userId', `${input.userId} is not a member of this workspace`);
    const beyond = scopesBeyond(scopes, (member[0] ?? missing('member[0]')).role);
    if (beyond.length > 0) {
      throw invalid(
        'scopes',
        `${beyond.join(', ')} ${beyond.length === 1 ? 'is' : 'are'} beyond what a ${(member[0] ?? missing('member[0]')).role} may do`,
      );
    }
    const wide = folderIds ? scopesBeyondFolders(scopes) : [];
    if (wide.length > 0) {
      throw invalid(
        'scopes',
        `${wide.join(', ')} cannot be held by a key limited to folders: webhook subscriptions and workflows reach the records of every folder`,
      );
    }
    if (folderIds) {
      const found = await tx
        .select({ id: schema.folders.id })
        .from(schema.folders)
        .where(and(eq(schema.folders.workspaceId, input.workspaceId), inArray(schema.folders.id, folderIds)));
      const unknown = folderIds.filter((id) => !found.some((f) => f.id === id));
      if (unknown.length > 0)
        throw invalid('folderIds', `${unknown.join(', ')}: no such folder in this workspace`);
    }
    const rows = await tx
      .insert(schema.apiKeys)
      .values({
        workspaceId: input.workspaceId,
        id: newId('apiKey'),
        userId: input.userId,
        name: input.name,
        prefix: displayPrefix(secret),
        secretHash: hashSecret(secret),
        scopes,
        folderIds,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      })
      .returning();
    await appendAudit(tx, input.workspaceId, by, {
      action: 'api_key.created',
      target: { type: 'api_key', id: (rows[0] ?? missing('the key the insert … returning wrote')).id },
      details: {
        name: input.name,
        scopes,
        folderIds,
        userId: input.userId,
        expiresAt: input.expiresAt ?? null,
      },
    });
    return rows;
  });
  return { key: serializeApiKey(row ?? missing('the key the insert … returning wrote')), secret };
}
