/**
 * Loaded (`--import`) into the service processes tests start (child-processes.ts): when the
 * test process that started this one is gone (its parent changes: it was reparented), this
 * process and its group end at once. Nothing else of the process changes; the check is a
 * timer that does not keep it alive.
 */
const parent = process.ppid;
setInterval(() => {
  if (process.ppid === parent) return;
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    // Not a group leader: end this process alone.
  }
  process.kill(process.pid, 'SIGKILL');
}, 500).unref();
