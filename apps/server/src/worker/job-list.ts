import type { Database } from '@crm/db';
import {
  fireSchedule,
  lowerSearchTexts,
  makeFieldIndexes,
  pruneAuditLog,
  pruneIdempotencyKeys,
  pruneJobs,
  pruneOAuthModels,
  pruneRateLimitBuckets,
  pruneRuns,
  pruneSessions,
  pruneWebhookHistory,
  purgeTrash,
  runJob,
  signSearchTexts,
  startEventWorkflows,
} from '@crm/domain';
import { type EngineOptions, executeRun } from '@crm/workflows';
import type { TaskList } from 'graphile-worker';
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import { unlockStuckJobs } from './unlock-stuck-jobs.ts';

// Jobs queued by earlier versions name the row by id alone (no workspaceId).
const eventJob = z.object({ eventId: z.string(), workspaceId: z.string().optional() });
const runPayload = z.object({ runId: z.string(), workspaceId: z.string().optional() });
const scheduleJob = z.object({ workflowId: z.string(), workspaceId: z.string() });
const jobPayload = z.object({ jobId: z.string(), workspaceId: z.string() });

/**
 * Background jobs, one entry per task; payloads are parsed before use (old jobs may linger).
 * Webhook deliveries are not jobs: the dispatcher sends them from the deliveries table, and
 * the `fan_out_event` and `deliver_webhook` jobs of earlier versions are drained into it when
 * a worker starts (legacy-webhook-jobs.ts).
 */
export function createJobList(
  db: Database,
  logger: Logger,
  workflows: EngineOptions,
  options: { auditRetentionDays: number; importChunksInFlight: number },
): TaskList {
  return {
    start_event_workflows: async (payload) => {
      const { eventId, workspaceId } = eventJob.parse(payload);
      await startEventWorkflows(db, { id: eventId, workspaceId });
    },
    run_workflow: async (payload) => {
      const { runId, workspaceId } = runPayload.parse(payload);
      const outcome = await executeRun(db, { id: runId, workspaceId }, workflows);
      if (outcome === 'retry-scheduled') logger.info({ runId }, 'workflow step failed; retry scheduled');
    },
    fire_schedule: async (payload) => {
      const runId = await fireSchedule(db, scheduleJob.parse(payload));
      if (runId) logger.info({ runId }, 'schedule fired');
    },
    run_job: async (payload) => {
      const { jobId, workspaceId } = jobPayload.parse(payload);
      await runJob(db, { id: jobId, workspaceId }, { importChunksInFlight: options.importChunksInFlight });
    },
    unlock_stuck_jobs: async (_payload, helpers) => {
      const unlocked = await unlockStuckJobs(helpers);
      if (unlocked > 0) logger.warn({ unlocked }, 'released jobs of workers that stopped');
    },
    lower_search_texts: async () => {
      const lowered = await batchesForAWhile(() => lowerSearchTexts(db));
      if (lowered > 0)
        logger.info({ lowered }, 'lower-cased the search text of records an earlier version wrote');
    },
    sign_search_texts: async () => {
      const signed = await batchesForAWhile(() => signSearchTexts(db));
      if (signed > 0)
        logger.info({ signed }, 'signed the long search texts of records written without a signature');
    },
    make_field_indexes: async () => {
      const built = await makeFieldIndexes(db);
      if (built > 0) logger.info({ built }, 'built the indexes of fields saved before their type had them');
    },
    purge_trash: async () => {
      const purged = await purgeTrash(db);
      if (purged > 0) logger.info({ purged }, 'purged records from Trash');
    },
    prune_rate_limits: async () => {
      await pruneRateLimitBuckets(db);
    },
    prune_idempotency_keys: async () => {
      await pruneIdempotencyKeys(db);
    },
    prune_webhook_history: async () => {
      await pruneWebhookHistory(db);
    },
    prune_jobs: async () => {
      const pruned = await pruneJobs(db);
      if (pruned > 0) logger.info({ pruned }, 'dropped jobs that ended over 30 days ago');
    },
    prune_workflow_runs: async () => {
      await pruneRuns(db);
    },
    prune_sessions: async () => {
      await pruneSessions(db);
      // The OAuth server's expired codes, tokens, grants and flow sessions (docs/mcp.md, "OAuth").
      await pruneOAuthModels(db);
    },
    prune_audit_log: async () => {
      const removed = await pruneAuditLog(db, options.auditRetentionDays);
      if (removed > 0) logger.info({ removed }, 'removed audit log entries past their retention');
    },
  };
}

/**
 * Runs `batch` (which returns how many rows it handled) again and again until it handles none
 * or 40 s have gone by; the next minute's run goes on. Returns the rows handled in all.
 */
async function batchesForAWhile(batch: () => Promise<number>): Promise<number> {
  const until = Date.now() + 40_000;
  let total = 0;
  for (let done = 1; done > 0 && Date.now() < until; ) {
    done = await batch();
    total += done;
  }
  return total;
}

/**
 * Records in Trash are purged daily (docs/api.md, "Records"); rate-limit buckets every 10
 * minutes; Idempotency-Key records past their 24 hours, and events, delivery attempts and
 * workflow runs past their 30 days, every hour; web sessions and OAuth rows past their end and
 * audit log entries past AUDIT_RETENTION_DAYS daily; jobs of dead workers are released, and
 * records whose search text an earlier version wrote lower-cased (migration 0024) and long
 * search texts without a signature (migration 0028), every minute; the indexes of fields that
 * lack them (saved before their type had one, or whose build failed), every ten minutes.
 */
export const crontab = [
  '* * * * * unlock_stuck_jobs ?max=1',
  '* * * * * lower_search_texts ?max=1',
  '* * * * * sign_search_texts ?max=1',
  '0 3 * * * purge_trash ?max=1',
  '*/10 * * * * prune_rate_limits ?max=1',
  '*/10 * * * * make_field_indexes ?max=1',
  '17 * * * * prune_idempotency_keys ?max=1',
  '23 * * * * prune_webhook_history ?max=1',
  '29 * * * * prune_workflow_runs ?max=1',
  '41 * * * * prune_jobs ?max=1',
  '41 4 * * * prune_sessions ?max=1',
  '53 4 * * * prune_audit_log ?max=1',
].join('\n');
