import type { Executor } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import type { DomainServices } from '../shared/services.ts';
import { planSteps, type Steps } from './plan-steps.ts';
import { readConfig } from './read-config.ts';
import type { ConfigPlan, planInput } from './schemas.ts';

/**
 * What applying a document would change (`POST /config/plan`), with what each removal does to
 * data; nothing is written. A document with problems is a 400 naming each.
 */
export async function planConfig(
  db: Executor,
  actor: Actor,
  input: z.infer<typeof planInput>,
  services: DomainServices,
): Promise<ConfigPlan> {
  const state = await readConfig(db, actor);
  const planned = checkedSteps(planSteps(state, input.document, input.prune ?? false, actor, services));
  for (const step of planned.steps) await step.cascade?.(db);
  return { changes: planned.steps.flatMap((s) => s.changes), left: planned.left };
}

/** The steps of a plan, or a 400 naming every problem of the document. */
export function checkedSteps(planned: Steps): Steps {
  const { problems } = planned;
  if (problems.length === 0) return planned;
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
  throw new DomainError('VALIDATION_FAILED', `${first?.path}: ${first?.message}${more}`, {
    details: problems,
  });
}
