import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import { changeAuth } from '../api-keys/auth-changes.ts';
import { invalid, notFound } from '../shared/errors.ts';

/** The most requests a minute a workspace may be given: a bucket count must fit an int. */
const MAX_WORKSPACE_RATE_LIMIT = 1_000_000_000;

/**
 * Changes how many requests a minute a workspace's keys may make together (docs/api.md,
 * "Keys and limits"). Every process counts with the new limit from its next request: the
 * change reaches their key caches through `changeAuth`.
 */
export async function setWorkspaceRateLimit(
  db: Database,
  workspaceId: string,
  rateLimitPerMinute: number,
): Promise<{ workspaceId: string; rateLimitPerMinute: number }> {
  if (
    !Number.isInteger(rateLimitPerMinute) ||
    rateLimitPerMinute < 1 ||
    rateLimitPerMinute > MAX_WORKSPACE_RATE_LIMIT
  ) {
    throw invalid('rateLimitPerMinute', `must be a whole number from 1 to ${MAX_WORKSPACE_RATE_LIMIT}`);
  }
  return changeAuth(db, { workspaceId }, async (tx) => {
    const [row] = await tx
      .update(schema.workspaces)
      .set({ rateLimitPerMinute, updatedAt: new Date() })
      .where(eq(schema.workspaces.id, workspaceId))
      .returning({
        workspaceId: schema.workspaces.id,
        rateLimitPerMinute: schema.workspaces.rateLimitPerMinute,
      });
    if (!row) throw notFound('Workspace', workspaceId);
    return row;
  });
}
