/** The margin awayFromMinuteBoundary keeps by default. */
const MARGIN_MS = 15_000;
/** The longest awayFromMinuteBoundary waits: the margin and a little more (testing/budget.ts counts it). */
export const MINUTE_BOUNDARY_WAIT_MS = MARGIN_MS + 200;

/**
 * Waits out the end of the current minute when less than `marginMs` of it is left. The rate
 * limit's window slides over one-minute buckets: tests assert exact counts only away from a
 * bucket boundary, where the previous bucket would start to weigh in.
 */
export async function awayFromMinuteBoundary(marginMs = MARGIN_MS): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 60_000 - marginMs) await new Promise((resolve) => setTimeout(resolve, 60_000 - into + 200));
}
