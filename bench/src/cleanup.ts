import { missing } from '@crm/domain';
import { withTimeout } from './time.ts';

export interface Cleanups {
  /** Registers a step; steps are undone in reverse order. */
  push(step: { what: string; run: () => Promise<void> }): void;
  /** Runs every step once (each bounded to 30 s); later calls get the same promise. */
  cleanUp(): Promise<void>;
}

/**
 * What a benchmark run must undo — children, servers, pools, databases — at the end, on
 * failure, or on Ctrl-C/SIGTERM (then the process exits 130 once everything is stopped).
 */
export function createCleanups(log: (line: string) => void): Cleanups {
  const steps: { what: string; run: () => Promise<void> }[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanUp = () => {
    cleaning ??= (async () => {
      while (steps.length > 0) {
        const step = steps.pop() ?? missing('steps.pop()');
        try {
          await withTimeout(step.run(), 30_000, step.what);
        } catch (error) {
          log(`warning: ${step.what} failed: ${String(error)}`);
        }
      }
    })();
    return cleaning;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping everything`);
      void cleanUp().finally(() => {
        log('stopped after a signal');
        process.exit(130);
      });
    });
  }
  return { push: (step) => steps.push(step), cleanUp };
}

/**
 * A benchmark's entry point: runs `main`, then every clean-up step whatever happened, and
 * exits 0, or 1 after logging the failure (a signal's exit is createCleanups').
 */
export async function runBench(
  main: () => Promise<void>,
  cleanups: Cleanups,
  log: (line: string) => void,
): Promise<never> {
  let exitCode = 0;
  try {
    await main();
  } catch (error) {
    exitCode = 1;
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await cleanups.cleanUp();
  }
  process.exit(exitCode);
}
