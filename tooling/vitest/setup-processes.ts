import { afterAll, beforeEach } from 'vitest';
import { killAll, killStartedBy, testStarting } from './child-processes.ts';

// The projects whose tests start processes (tooling/vitest/child-processes.ts): a
// process started during a test that fails or times out is killed as that test ends, and
// whatever a file's tests left running is killed once they are done. This setup's hooks run
// after the file's own (Vitest runs after-hooks last-registered first), so a file that stops
// its processes itself, as each should, leaves nothing here.
beforeEach(({ task, onTestFailed }) => {
  testStarting(task.id);
  onTestFailed(() => {
    const killed = killStartedBy(task.id);
    if (killed.length > 0) {
      console.warn(`"${task.name}" failed; killed the processes it had started: ${killed.join('; ')}`);
    }
  });
});

afterAll(() => {
  const killed = killAll();
  if (killed.length > 0) {
    console.warn(`killed the processes this file's tests left running: ${killed.join('; ')}`);
  }
});
