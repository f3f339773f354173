import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
export const wallNow = () => performance.timeOrigin + performance.now();

export interface Arrival {
  /** `webhook-id`: the event id. */
  eventId: string;
  /** The payload's `recordId`, to match a delivery with the request that caused it. */
  recordId: string | null;
  /** The request path: which subscription the delivery was for. */
  path: string;
  /** When the request's headers arrived (wallNow()). */
  at: number;
  status: number;
}

/**
 * The loopback webhook receiver: answers 200 to every request as soon as its body has been
 * read, and records when it arrived and which event it carried.
 */
export class Receiver {
  readonly arrivals: Arrival[] = [];
  private server: Server | undefined;
  private waiters: { count: number; resolve: () => void }[] = [];
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const at = wallNow();
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
        const header = req.headers['webhook-id'];
        let recordId: string | null = null;
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { recordId?: unknown };
          if (typeof body.recordId === 'string') recordId = body.recordId;
        } catch {
          // not JSON: counted, matched by nothing
        }
        this.arrivals.push({
          eventId: typeof header === 'string' ? header : '',
          recordId,
          path: req.url ?? '',
          at,
          status: 200,
        });
        this.wake();
      });
    });
    // The service keeps connections alive (closing idle ones after 4 s, before this server's
    // 5 s); room for many in case a run opens more.
    server.maxConnections = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', 1024, () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  /** Resolves once `count` requests have arrived in all, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<boolean> {
    if (this.arrivals.length >= count) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const waiter = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  private wake() {
    const n = this.arrivals.length;
    const ready = this.waiters.filter((w) => w.count <= n);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.count > n);
    for (const w of ready) w.resolve();
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
}
