import { allScopes } from '@crm/constants';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { apiKeyScopes, memberRoles } from '@crm/db/schema';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { instantOutput } from '../shared/schemas.ts';
import { peekRateLimit, workspaceRateLimitSubject } from './peek-rate-limit.ts';

export const meOutput = z
  .object({
    workspace: z.object({
      id: z.string().meta({ example: 'ws_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
      name: z.string(),
      defaultCurrency: z.string().meta({ description: 'ISO 4217 code used for deals that name none.' }),
      rateLimitPerMinute: z.number().int(),
    }),
    user: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      role: z.enum(memberRoles),
    }),
    key: z
      .object({
        id: z.string(),
        name: z.string(),
        prefix: z.string().meta({ description: 'First characters of the secret, for recognising it' }),
        scopes: z.array(z.enum(apiKeyScopes)).meta({ description: 'The scopes the key lists.' }),
        folderIds: z
          .array(z.string())
          .nullable()
          .meta({ description: 'The folders the key reaches; null for every folder.' }),
        expiresAt: instantOutput().nullable(),
      })
      .nullable()
      .meta({ description: 'The API key of this request; null for a signed-in session.' }),
    scopes: z.array(z.enum(allScopes as [string, ...string[]])).meta({
      description:
        "What this caller may do now, scope by scope: the key's scopes within its maker's role, or a signed-in user's role (docs/api.md, \"Scopes\").",
    }),
    rateLimit: z
      .object({
        limit: z.number().int(),
        remaining: z.number().int(),
        resetSeconds: z.number().int(),
      })
      .meta({
        description:
          'The workspace rate limit as of this request (this request counted), read from the same window as the RateLimit-* headers.',
      }),
  })
  .meta({ id: 'Me' });

export type MeOutput = z.infer<typeof meOutput>;

/** The caller's workspace, user, key and rate-limit state (GET /api/v1/me). */
export async function getMe(db: Database, actor: Actor, now: number = Date.now()): Promise<MeOutput> {
  const w = schema.workspaces;
  const u = schema.users;
  const m = schema.memberships;
  const [row] = await db
    .select({
      workspace: {
        id: w.id,
        name: w.name,
        defaultCurrency: w.defaultCurrency,
        rateLimitPerMinute: w.rateLimitPerMinute,
      },
      user: { id: u.id, name: u.name, email: u.email, role: m.role },
    })
    .from(m)
    .innerJoin(w, eq(w.id, m.workspaceId))
    .innerJoin(u, eq(u.id, m.userId))
    .where(and(eq(m.workspaceId, actor.workspaceId), eq(m.userId, actor.userId)));
  // Only when the workspace or the membership went away after the gate let the request in.
  if (!row) {
    throw new DomainError('UNAUTHORIZED', 'The API key no longer belongs to a member of a workspace', {
      challenge: { scheme: 'Bearer' },
    });
  }
  const rateLimit = await peekRateLimit(
    db,
    workspaceRateLimitSubject(actor.workspaceId),
    row.workspace.rateLimitPerMinute,
    now,
  );
  return {
    workspace: row.workspace,
    user: row.user,
    key: await findKey(db, actor),
    scopes: allScopes.filter((scope) => actor.scopes.has(scope)),
    rateLimit,
  };
}

async function findKey(db: Database, actor: Actor): Promise<MeOutput['key']> {
  if (!actor.apiKeyId) return null;
  const k = schema.apiKeys;
  const [key] = await db
    .select({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      folderIds: k.folderIds,
      expiresAt: k.expiresAt,
    })
    .from(k)
    .where(and(eq(k.workspaceId, actor.workspaceId), eq(k.id, actor.apiKeyId)));
  return key
    ? { ...key, folderIds: key.folderIds ?? null, expiresAt: key.expiresAt?.toISOString() ?? null }
    : null;
}
