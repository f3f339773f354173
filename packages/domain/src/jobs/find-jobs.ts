import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import { type JobRow, makerNameOf, serializeJob } from './job-row.ts';
import type { findJobsInput } from './schemas.ts';

const j = schema.jobs;

/** `GET /jobs`: the workspace's jobs, newest first, by type and status. */
export async function findJobs(db: Database, actor: Actor, input: z.output<typeof findJobsInput>) {
  const paging = resolvePaging(input);
  const where: (SQL | undefined)[] = [
    eq(j.workspaceId, actor.workspaceId),
    input.type ? eq(j.type, input.type) : undefined,
    input.status ? eq(j.status, input.status) : undefined,
    paging.kind === 'cursor'
      ? sql`(${j.createdAt}, ${j.id}) < (${paging.after.createdAt}::timestamptz, ${paging.after.id})`
      : undefined,
  ];
  const rows = await db
    .select()
    .from(j)
    .where(and(...where))
    .orderBy(desc(j.createdAt), desc(j.id))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  const names = new Map<string, string>();
  for (const row of rows) {
    const who = row.actor.apiKeyId ?? row.actor.userId;
    if (!names.has(who)) names.set(who, await makerNameOf(db, row));
  }
  return toPage(rows, paging, (row: JobRow) =>
    serializeJob(row, names.get(row.actor.apiKeyId ?? row.actor.userId) ?? ''),
  );
}
