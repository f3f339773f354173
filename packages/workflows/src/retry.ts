import { missing } from '@crm/domain';
/** A failing step is tried this many times in all (docs/workflows.md, "Runs"). */
export const MAX_STEP_ATTEMPTS = 5;

/** Seconds before attempt n+1 after attempt n failed (n = 1…4): 10 s, 1 min, 5 min, 30 min. */
const DELAYS_SECONDS = [10, 60, 300, 1800];

export interface StepRetryPolicy {
  /** Multiplies every delay; tests shrink it (WORKFLOW_RETRY_SCALE). */
  scale: number;
  /** ± this fraction of random spread, so failing runs do not retry in lockstep. */
  jitter: number;
}

/** Milliseconds to wait after the `attempt`-th failure of a step. */
export function stepRetryDelayMs(
  attempt: number,
  policy: StepRetryPolicy,
  random: () => number = Math.random,
): number {
  const base =
    (DELAYS_SECONDS[Math.min(attempt, DELAYS_SECONDS.length) - 1] ??
      missing('DELAYS_SECONDS[Math.min(attempt, DELAYS_SECONDS.length) - 1]')) *
    1000 *
    policy.scale;
  const spread = 1 + policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(base * spread));
}
