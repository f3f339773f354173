import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';
import { DomainError } from '../shared/errors.ts';

/** Runs a workspace may have WAITING (docs/workflows.md, "Managing workflows", Limits). */
const MAX_WAITING_RUNS = 100_000;
/** How long a workspace's count of waiting runs is reused before it is counted again. */
const COUNT_TTL_MS = 10_000;
const RETRY_AFTER_SECONDS = 60;

/**
 * The limit on waiting runs, checked when a run is started: a workspace with 100,000 runs
 * WAITING gets 429 until some go on. The count (an index-only scan of the partial index of
 * waiting runs, a few milliseconds at the limit) is kept 10 s per workspace and process, so
 * the trigger endpoint's calls do not count it each; the limit may be passed by what a
 * workspace starts within those 10 s.
 */
export function waitingRoom(db: Database, maxWaiting = MAX_WAITING_RUNS) {
  const counted = new Map<string, { waiting: number; at: number }>();
  const inFlight = new Map<string, Promise<number>>();
  const count = async (workspaceId: string): Promise<number> => {
    const result = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from (
        select 1 from workflow_runs where workspace_id = ${workspaceId} and status = 'WAITING' limit ${maxWaiting}
      ) waiting`);
    return result.rows[0]?.n ?? 0;
  };
  return async (workspaceId: string): Promise<void> => {
    let entry = counted.get(workspaceId);
    if (!entry || Date.now() - entry.at > COUNT_TTL_MS) {
      let pending = inFlight.get(workspaceId);
      if (!pending) {
        pending = count(workspaceId).finally(() => inFlight.delete(workspaceId));
        inFlight.set(workspaceId, pending);
      }
      entry = { waiting: await pending, at: Date.now() };
      if (counted.size >= 10_000) counted.clear();
      counted.set(workspaceId, entry);
    }
    if (entry.waiting >= maxWaiting) {
      throw new DomainError(
        'RATE_LIMITED',
        `This workspace has ${maxWaiting} runs waiting (DELAY or APPROVAL), the most it may have; retry once some have gone on`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
  };
}
