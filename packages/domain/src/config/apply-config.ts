import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import { ensureFieldIndexes } from '../folders/field-indexes.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import type { DomainServices } from '../shared/services.ts';
import { issueDetails } from '../shared/zod-issues.ts';
import { checkedSteps } from './plan-config.ts';
import { type Live, planSteps } from './plan-steps.ts';
import { readConfig } from './read-config.ts';
import type { ConfigApplied, planInput } from './schemas.ts';

/**
 * Makes the workspace's configuration the document's (`POST /config/apply`; docs/operations.md,
 * "Configuration as code"): the plan, made in one transaction, all or nothing. Applying the
 * same document again changes nothing. Applies of one workspace take turns (a transaction
 * lock), so each plans on what the one before it left. The changes are audited one by one, as
 * the API's own calls audit them, and as a whole (`config.applied`).
 */
export async function applyConfig(
  db: Database,
  actor: Actor,
  input: z.infer<typeof planInput>,
  services: DomainServices,
): Promise<ConfigApplied> {
  const prune = input.prune ?? false;
  // Field indexes are built outside any transaction (folders/field-indexes.ts); one that the
  // apply then does not need costs nothing but its room.
  await ensureFieldIndexes(
    db,
    input.document.folders.flatMap((f) => f.fields),
  );
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`config ${actor.workspaceId}`}, 0))`,
    );
    const state = await readConfig(tx, actor);
    const planned = checkedSteps(planSteps(state, input.document, prune, actor, services));
    for (const step of planned.steps) await step.cascade?.(tx);
    const live: Live = { folders: new Map(), pipelines: new Map(), stages: new Map(), secrets: [] };
    for (const step of planned.steps) {
      try {
        await step.run(tx, live);
      } catch (error) {
        throw at(step.at, error);
      }
    }
    const changes = planned.steps.flatMap((s) => s.changes);
    if (changes.length > 0) {
      const counts: Record<string, number> = {};
      for (const c of changes) counts[`${c.op} ${c.kind}`] = (counts[`${c.op} ${c.kind}`] ?? 0) + 1;
      await audit(tx, actor, {
        action: 'config.applied',
        details: { prune, changes: counts },
      });
    }
    return { changes, left: planned.left, secrets: live.secrets };
  });
}

/** A refusal of one step, its paths prefixed with where the step's object is in the request. */
function at(path: string, error: unknown): unknown {
  if (error instanceof z.ZodError) {
    const details = issueDetails(error).map((d) => ({ path: `${path}.${d.path}`, message: d.message }));
    return new DomainError('VALIDATION_FAILED', `${details[0]?.path}: ${details[0]?.message}`, { details });
  }
  if (!(error instanceof DomainError) || error.code === 'INTERNAL') return error;
  const details = (error.details ?? [{ path: '', message: error.message }]).map((d) => ({
    path: d.path ? `${path}.${d.path}` : path,
    message: d.message,
  }));
  return new DomainError(error.code, `${path}: ${error.message}`, {
    details,
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  });
}
