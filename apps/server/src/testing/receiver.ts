import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes. */
  body: Buffer;
  at: number;
  /** The status this receiver answered with (undefined when it never answered). */
  answered?: number;
}

/** How to answer one request: a status (and optional body/headers), or 'hang' to never answer. */
export type Reply = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

/**
 * A loopback HTTP server for webhook tests: records every request with its exact bytes and
 * answers by a programmable script (default 200). Can be stopped and started on the same
 * port to play a receiver that is down for a while.
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private server: Server | undefined;
  private script: Reply[] = [];
  private fallback: Reply = { status: 200, body: 'ok' };
  private hanging = new Set<ServerResponse>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Replies for the next requests, in order; after them the fallback. */
  reply(...replies: Reply[]): this {
    this.script.push(...replies);
    return this;
  }

  always(reply: Reply): this {
    this.fallback = reply;
    return this;
  }

  async start(port = this.port): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        };
        this.requests.push(request);
        const reply = this.script.shift() ?? this.fallback;
        if (reply === 'hang') {
          this.hanging.add(res);
          return;
        }
        request.answered = reply.status;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? '');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until `count` requests arrived, or fails after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 15_000, path?: string): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = this.requests.filter((r) => path === undefined || r.path === path);
      if (got.length >= count) return got;
      if (Date.now() > deadline)
        throw new Error(`receiver got ${got.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Polls `check` until it returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
