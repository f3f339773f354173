import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import type { findWebhooksInput } from './schemas.ts';
import { serializeWebhook } from './serialize.ts';

/** A page of the workspace's subscriptions, newest first. */
export async function findWebhooks(db: Database, actor: Actor, input: z.infer<typeof findWebhooksInput>) {
  const paging = resolvePaging(input);
  const w = schema.webhooks;
  const rows = await db
    .select()
    .from(w)
    .where(and(eq(w.workspaceId, actor.workspaceId), afterCursor(w.createdAt, w.id, paging, 'desc')))
    .orderBy(...keysetOrder(w.createdAt, w.id, 'desc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  return toPage(rows, paging, serializeWebhook);
}
