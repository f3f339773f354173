import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Database, isSharded, schema } from '@crm/db';
import { type Actor, createWorkflow, createWorkflowInput, queueRun } from '@crm/domain';
import { parseAllowList } from '@crm/webhooks';
import { eq } from 'drizzle-orm';
import type { EngineOptions } from '../execute-run.ts';

/** What the engine's tests run it with: loopback allowed, retries without their waits. */
export const testEngineOptions: EngineOptions = {
  http: { allow: parseAllowList('127.0.0.1/32'), timeoutMs: 2_000, connectTimeoutMs: 1_000 },
  retry: { scale: 0.0001, jitter: 0 },
};

/**
 * A loopback server for HTTP_REQUEST steps: keeps what it receives, answers `replies` in
 * turn (200 once they run out) with a small JSON body.
 */
export class TestReceiver {
  readonly received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] =
    [];
  replies: number[] = [];
  url = '';
  #server: Server | undefined;

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const status = this.replies.shift() ?? 200;
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ok: status < 300, crmId: 'ext-42' }));
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** Forgets what was received and the replies left. */
  reset(): void {
    this.received.length = 0;
    this.replies = [];
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

/** Saves a workflow of `actions` (trigger INCOMING_WEBHOOK unless `extra` says otherwise). */
export async function workflowWith(
  db: Database,
  actor: Actor,
  actions: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
) {
  const input = createWorkflowInput.parse({
    name: 'Flow',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions,
    ...extra,
  });
  return createWorkflow(db, actor, input, { baseUrl: 'http://crm.test', checkOutboundUrl: async () => {} });
}

/** Queues a run of the workflow with `body` as its input, as the trigger endpoint does. */
export async function queueTestRun(
  db: Database,
  actor: Actor,
  workflowId: string,
  body: unknown,
  recordId: string | null = null,
): Promise<string> {
  const [flow] = await db.select().from(schema.workflows).where(eq(schema.workflows.id, workflowId));
  if (!flow) throw new Error(`no workflow ${workflowId}`);
  return queueRun(
    db,
    {
      workspaceId: actor.workspaceId,
      workflowId,
      trigger: 'INCOMING_WEBHOOK',
      input: body,
      recordId,
      actions: flow.actions,
    },
    await isSharded(db),
  );
}
