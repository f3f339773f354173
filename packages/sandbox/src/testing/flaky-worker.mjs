// @ts-check
/**
 * A worker for pool.test.ts that misbehaves on request: source 'exit' ends the thread, 'hang'
 * is never answered, 'crash' throws outside any handler; any other source is answered with
 * itself as the output. It says it is ready at once.
 */
import { parentPort } from 'node:worker_threads';

const port = parentPort;
if (!port) throw new Error('flaky-worker.mjs runs as a worker thread');
/** @type {import('../protocol.ts').ReadyMessage} */
const ready = { ready: true };
port.postMessage(ready);
port.on('message', (/** @type {import('../protocol.ts').RunRequest} */ request) => {
  if (request.source === 'exit') process.exit(3);
  if (request.source === 'hang') return;
  if (request.source === 'crash') {
    setImmediate(() => {
      throw new Error('crashed on purpose');
    });
    return;
  }
  /** @type {import('../protocol.ts').RunReply} */
  const reply = {
    id: request.id,
    result: { ok: true, outputJson: JSON.stringify(request.source), durationMs: 0 },
  };
  port.postMessage(reply);
});
