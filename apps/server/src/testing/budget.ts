import { DRAIN_MS } from '../service.ts';
import { MINUTE_BOUNDARY_WAIT_MS } from './minute-boundary.ts';
import { SERVER_START_MS } from './worker-process.ts';

/**
 * Time limits for the tests whose length is the work they do (the fault tests, CONTRIBUTING.md
 * "Test projects"): a floor, plus a share for each unit of work the test states (requests,
 * jobs, process starts, drains), instead of one guess in seconds that a slower or busier
 * machine outgrows. The shares are several times what two cores shared with another CPU-heavy
 * job need (README, "Tests"), so that a limit is only reached when something is stuck.
 */
export const BUDGET = {
  /** What any test gets, whatever its work: set-up, first connections, a few queries. */
  floorMs: 15_000,
  /** One HTTP request to a service process, answered (measured: about 10 ms under load). */
  requestMs: 50,
  /**
   * One job done by a worker process, a webhook delivery or a workflow step: about 25 ms with
   * the machine to itself, and 60 workflow runs of three steps took over 40 s once under heavy
   * load from elsewhere.
   */
  jobMs: 400,
  /** A service process started until it listens: the most startServerProcess waits. */
  processStartMs: SERVER_START_MS,
  /** A service process stopped with SIGTERM until it exits: the most it drains. */
  processDrainMs: DRAIN_MS,
  /** A PostgreSQL server of the test's own stopped and started again, or created (initdb, migrations). */
  databaseRestartMs: 20_000,
  /** The wait of awayFromMinuteBoundary, at most. */
  minuteBoundaryMs: MINUTE_BOUNDARY_WAIT_MS,
} as const;

export interface Work {
  requests?: number;
  jobs?: number;
  processStarts?: number;
  processDrains?: number;
  databaseRestarts?: number;
  /** Whether the test waits with awayFromMinuteBoundary. */
  minuteBoundary?: boolean;
  /** Milliseconds the test waits on purpose (load it runs for, a bound it checks). */
  waitsMs?: number;
}

/** The time limit of a test that does `work`, for `it(name, fn, budget(work))`. */
export function budget(work: Work): number {
  return (
    BUDGET.floorMs +
    (work.requests ?? 0) * BUDGET.requestMs +
    (work.jobs ?? 0) * BUDGET.jobMs +
    (work.processStarts ?? 0) * BUDGET.processStartMs +
    (work.processDrains ?? 0) * BUDGET.processDrainMs +
    (work.databaseRestarts ?? 0) * BUDGET.databaseRestartMs +
    (work.minuteBoundary ? BUDGET.minuteBoundaryMs : 0) +
    (work.waitsMs ?? 0)
  );
}
