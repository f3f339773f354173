import { createServer, type Server } from 'node:http';
import type pg from 'pg';
import { databaseReady } from '../http/health.ts';
import { listenOn } from '../http/listen.ts';
import type { Metrics } from './metrics.ts';

export interface OpsServer {
  /** e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

/**
 * The operations listener, apart from the API (docs/operations.md, "Metrics"): `/metrics` in
 * Prometheus's text format, `/healthz` (the process is up) and `/readyz` (its database
 * answers). A worker process, which serves no API, is probed here.
 */
export async function startOpsServer(options: {
  host: string;
  port: number;
  metrics: Metrics;
  pool: pg.Pool;
  role: string;
}): Promise<OpsServer> {
  const { metrics, pool, role } = options;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const json = (status: number, body: unknown, headers?: Record<string, string>) =>
      send(status, 'application/json', JSON.stringify(body), headers);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return json(405, { status: 'use GET' }, { Allow: 'GET, HEAD' });
    }
    if (path === '/healthz') return json(200, { status: 'ok', role });
    if (path === '/readyz') {
      void databaseReady(pool).then((ready) =>
        ready
          ? json(200, { status: 'ready', role })
          : json(503, { status: 'database unreachable', role }, { 'Retry-After': '5' }),
      );
      return;
    }
    if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) => send(200, metrics.registry.contentType, text),
        (error: unknown) => send(500, 'text/plain', `metrics could not be collected: ${String(error)}\n`),
      );
      return;
    }
    json(404, { status: 'not found', paths: ['/metrics', '/healthz', '/readyz'] });
  });
  // Scrapers and probes keep connections open; none of them may hold up a shutdown.
  server.keepAliveTimeout = 5_000;
  return {
    url: await listenOn(server, options.port, options.host, 'OPS_PORT'),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
