import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUrl, parseAllowList, type Resolver } from './address-guard.ts';
import { createDeliveryAgents } from './deliver.ts';
import { allowListFromEnv, type SendResult, type SentResponse, sendRequest } from './send-request.ts';
import { signDelivery } from './sign.ts';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Receiver {
  server: http.Server;
  received: Received[];
  port: number;
  url(path?: string): string;
}

async function startReceiver(
  host: string,
  respond: (path: string, res: ServerResponse) => void,
): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks) });
      respond(path, res);
    });
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(0, host, () => listening());
  });
  const { port } = server.address() as AddressInfo;
  const base = host.includes(':') ? `[${host}]` : host;
  return { server, received, port, url: (path = '/') => `http://${base}:${port}${path}` };
}

async function stop(receiver: Receiver | undefined): Promise<void> {
  if (!receiver) return;
  receiver.server.closeAllConnections();
  await new Promise((closed) => receiver.server.close(closed));
}

const loopbackOnly = parseAllowList('127.0.0.1/32');
const fixed =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses;
const noDns: Resolver = async (host) => {
  throw new Error(`test queried DNS for ${host}`);
};
const errorOf = (result: SendResult) => ('error' in result ? result.error : `status ${result.status}`);
function responseOf(result: SendResult): SentResponse {
  if ('error' in result) throw new Error(`expected a response, got ${result.error}`);
  return result;
}

let receiver: Receiver;
let redirectTarget: Receiver;
let v6Receiver: Receiver | undefined;
let streamClosed: Promise<number>;

beforeAll(async () => {
  redirectTarget = await startReceiver('127.0.0.1', (_path, res) => res.end('followed'));
  let onStreamClosed: (sent: number) => void = () => {};
  streamClosed = new Promise((done) => {
    onStreamClosed = done;
  });
  receiver = await startReceiver('127.0.0.1', (path, res) => {
    if (path === '/fail') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('0123456789'.repeat(1024));
    } else if (path === '/redirect') {
      res.writeHead(302, { location: redirectTarget.url('/elsewhere') }).end();
    } else if (path === '/hang') {
      // never answers; closed by afterAll
    } else if (path === '/stream') {
      const chunk = Buffer.alloc(16 * 1024, 'a');
      let sent = 0;
      res.on('close', () => onStreamClosed(sent));
      res.writeHead(200);
      const pump = () => {
        while (sent < 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        // 1 MiB written and never ended: a client that reads it all would wait for the deadline.
      };
      pump();
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    }
  });
  v6Receiver = await startReceiver('::1', (_path, res) => res.end('v6')).catch(() => undefined);
});

afterAll(async () => {
  await Promise.all([stop(receiver), stop(redirectTarget), stop(v6Receiver)]);
});

describe('sendRequest refuses forbidden destinations before anything is sent', () => {
  it.each([
    ['http://127.1:PORT/', '127.0.0.1 (loopback)'],
    ['http://0x7f000001:PORT/', '127.0.0.1 (loopback)'],
    ['http://0177.0.0.1:PORT/', '127.0.0.1 (loopback)'],
    ['http://2130706433:PORT/', '127.0.0.1 (loopback)'],
    ['http://[::1]:PORT/', '::1 (loopback)'],
    ['http://[::ffff:127.0.0.1]:PORT/', '::ffff:7f00:1 (IPv4-mapped loopback)'],
    ['http://0.0.0.0:PORT/', '0.0.0.0 (unspecified)'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 (cloud metadata)'],
    ['http://10.0.0.1/', '10.0.0.1 (private)'],
    ['http://[fe80::1]/', 'fe80::1 (link-local)'],
    ['http://100.64.0.1/', '100.64.0.1 (CGNAT)'],
    ['ftp://x/', 'webhook URL must use http or https, not ftp'],
    ['http://user:pw@example.com/', 'webhook URL must not contain a user name or password'],
  ])('%s', async (url, why) => {
    const result = await sendRequest({
      url: url.replace('PORT', String(receiver.port)),
      resolve: noDns,
      timeoutMs: 1000,
    });
    expect(errorOf(result)).toBe(`refused address: ${why}`);
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback', async () => {
    const result = await sendRequest({
      url: `http://hooks.test:${receiver.port}/`,
      resolve: fixed('127.0.0.1'),
    });
    expect(errorOf(result)).toBe('refused address: 127.0.0.1 (loopback)');
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a name with a private address among public ones', async () => {
    const resolve = fixed('127.0.0.1', '93.184.215.14');
    const result = await sendRequest({ url: `http://mixed.test:${receiver.port}/`, resolve });
    expect(errorOf(result)).toBe('refused address: 127.0.0.1 (loopback)');
    expect(receiver.received).toHaveLength(0);
  });

  it('does not stretch an allow list to neighbouring loopback addresses', async () => {
    for (const host of ['127.0.0.2', '[::1]']) {
      const result = await sendRequest({ url: `http://${host}:${receiver.port}/`, allow: loopbackOnly });
      expect(errorOf(result)).toMatch(/^refused address: .* \(loopback\)$/);
    }
    expect(receiver.received).toHaveLength(0);
  });
});

describe('DNS rebinding', () => {
  const rebinding = () => {
    let calls = 0;
    const resolve: Resolver = async () => (++calls === 1 ? ['93.184.215.14'] : ['127.0.0.1']);
    return { resolve, calls: () => calls };
  };

  it('is refused at connect time after a public answer at registration', async () => {
    const { resolve, calls } = rebinding();
    const url = `http://rebind.test:${receiver.port}/hook`;
    await expect(checkUrl(url, parseAllowList(undefined), resolve)).resolves.toBeInstanceOf(URL);
    const result = await sendRequest({ url, resolve, body: Buffer.from('{}') });
    expect(errorOf(result)).toBe('refused address: 127.0.0.1 (loopback)');
    expect(calls()).toBe(2);
    expect(receiver.received).toHaveLength(0);
  });

  it('connects to the address resolved at connect time (control: the operator allows loopback)', async () => {
    const { resolve } = rebinding();
    const url = `http://rebind.test:${receiver.port}/control`;
    await checkUrl(url, loopbackOnly, resolve);
    const result = await sendRequest({ url, resolve, allow: loopbackOnly });
    expect(responseOf(result).status).toBe(200);
    expect(receiver.received.splice(0).map((r) => r.path)).toEqual(['/control']);
  });
});

describe('sendRequest to an allowed receiver', () => {
  it('delivers the method, the headers and the exact body bytes', async () => {
    const body = Buffer.concat([
      Buffer.from('{"id":"evt_1","name":"Zoë"}'),
      Buffer.from([0, 255, 13, 10, 128]),
    ]);
    const headers = {
      'Content-Type': 'application/json',
      'X-Static-Token': 'tok_123',
      ...signDelivery({ current: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, 'evt_1', body),
    };
    const result = responseOf(
      await sendRequest({
        url: receiver.url('/in?x=1'),
        headers,
        body,
        allow: allowListFromEnv({ WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' }),
      }),
    );
    expect(result).toMatchObject({ status: 200, excerpt: 'thanks', truncated: false });
    expect(result.headers['content-type']).toBe('text/plain');
    const [got] = receiver.received.splice(0);
    expect(got?.method).toBe('POST');
    expect(got?.path).toBe('/in?x=1');
    expect(got?.body.equals(body)).toBe(true);
    expect(got?.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(body.length),
      'x-static-token': 'tok_123',
      'x-service-signature': headers['X-Service-Signature'],
      'webhook-id': 'evt_1',
      'webhook-signature': headers['webhook-signature'],
    });
  });

  it('uses the configured method', async () => {
    const result = await sendRequest({ url: receiver.url('/put'), method: 'PUT', allow: loopbackOnly });
    expect(responseOf(result).status).toBe(200);
    expect(receiver.received.splice(0).map((r) => r.method)).toEqual(['PUT']);
  });

  it('reaches an IPv6 loopback receiver when ::1 is allowed', async (ctx) => {
    if (!v6Receiver) return ctx.skip();
    const result = await sendRequest({ url: v6Receiver.url('/'), allow: parseAllowList('::1/128') });
    expect(responseOf(result).excerpt).toBe('v6');
    expect(v6Receiver.received).toHaveLength(1);
  });

  it('returns a 500 with at most 4 KiB of its body as the excerpt', async () => {
    const result = responseOf(await sendRequest({ url: receiver.url('/fail'), allow: loopbackOnly }));
    expect(result.status).toBe(500);
    expect(result.body).toHaveLength(10 * 1024);
    expect(result.excerpt).toHaveLength(4096);
    expect(result.excerpt).toBe('0123456789'.repeat(1024).slice(0, 4096));
  });

  it('returns a 302 without following it', async () => {
    const result = responseOf(await sendRequest({ url: receiver.url('/redirect'), allow: loopbackOnly }));
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe(redirectTarget.url('/elsewhere'));
    await sleep(100);
    expect(redirectTarget.received).toHaveLength(0);
  });

  it('gives up on a receiver that never answers at the total timeout', async () => {
    // The connect timeout is shorter but stops counting once the socket is connected.
    const url = receiver.url('/hang');
    const result = await sendRequest({ url, allow: loopbackOnly, connectTimeoutMs: 100, timeoutMs: 300 });
    // It waited for the total timeout (the receiver never answers: without one, the call would
    // hang until the test's own timeout).
    expect(errorOf(result)).toBe('timeout');
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('reads at most 64 KiB of a 1 MiB response, then hangs up', async () => {
    const result = responseOf(
      await sendRequest({ url: receiver.url('/stream'), allow: loopbackOnly, timeoutMs: 5000 }),
    );
    expect(result).toMatchObject({ status: 200, truncated: true });
    expect(result.body).toHaveLength(64 * 1024);
    expect(result.excerpt).toBe('a'.repeat(4096));
    const closed = await Promise.race([streamClosed, sleep(2000, 'still open')]);
    expect(closed).not.toBe('still open');
  });

  it('reports connection refused on a closed port', async () => {
    const closed = await startReceiver('127.0.0.1', (_path, res) => res.end());
    await stop(closed);
    const result = await sendRequest({ url: closed.url('/'), allow: loopbackOnly });
    expect(errorOf(result)).toBe('connection refused');
  });

  it('counts name resolution in the connect timeout', async () => {
    const slow: Resolver = async () => {
      await sleep(1000);
      return ['127.0.0.1'];
    };
    const url = `http://slow.test:${receiver.port}/slow`;
    // The name resolves after 1 s and the receiver answers at once: only a connect timeout that
    // counts the resolution ends the call with this error.
    const result = await sendRequest({ url, resolve: slow, allow: loopbackOnly, connectTimeoutMs: 200 });
    expect(errorOf(result)).toBe('connect timeout');
  });
});

describe('sendRequest over keep-alive agents', () => {
  it('reuses one connection for consecutive requests, without waiting for a new connect', async () => {
    const agents = createDeliveryAgents(4);
    let connections = 0;
    const count = () => connections++;
    receiver.server.on('connection', count);
    try {
      const options = { allow: loopbackOnly, agent: agents.http, connectTimeoutMs: 50, timeoutMs: 2_000 };
      const first = await sendRequest({ url: receiver.url('/a'), ...options });
      // Longer than the connect timeout: a reused connection must not trip it.
      await sleep(120);
      const second = await sendRequest({ url: receiver.url('/b'), ...options });
      expect([responseOf(first).status, responseOf(second).status]).toEqual([200, 200]);
      expect(connections).toBe(1);
      // A failed attempt whose response was read to its end keeps the connection too.
      expect(responseOf(await sendRequest({ url: receiver.url('/fail'), ...options })).status).toBe(500);
      expect(connections).toBe(1);
    } finally {
      receiver.server.off('connection', count);
      agents.destroy();
    }
  });

  it('still checks every new connection: an open one to an allowed address does not let another name through', async () => {
    const agents = createDeliveryAgents(4);
    try {
      const allowed = await sendRequest({
        url: receiver.url('/ok'),
        allow: loopbackOnly,
        agent: agents.http,
      });
      expect(responseOf(allowed).status).toBe(200);
      const rebound = await sendRequest({
        url: `http://rebound.example:${receiver.port}/`,
        allow: loopbackOnly,
        resolve: fixed('127.0.0.2'),
        agent: agents.http,
      });
      expect(errorOf(rebound)).toMatch(/^refused address: 127\.0\.0\.2/);
    } finally {
      agents.destroy();
    }
  });

  it('does not return a connection whose response was cut to the pool', async () => {
    const agents = createDeliveryAgents(4);
    let connections = 0;
    const count = () => connections++;
    receiver.server.on('connection', count);
    try {
      const options = { allow: loopbackOnly, agent: agents.http, timeoutMs: 300 };
      const hung = await sendRequest({ url: receiver.url('/hang'), ...options });
      expect(errorOf(hung)).toBe('timeout');
      const next = await sendRequest({ url: receiver.url('/after'), ...options });
      expect(responseOf(next).status).toBe(200);
      expect(connections).toBe(2);
    } finally {
      receiver.server.off('connection', count);
      agents.destroy();
    }
  });
});

describe('allowListFromEnv', () => {
  it('reads WEBHOOK_ALLOW_CIDRS', () => {
    expect(allowListFromEnv({ WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' }).includes('127.0.0.1')).toBe(true);
    expect(allowListFromEnv({}).cidrs).toEqual([]);
    expect(() => allowListFromEnv({ WEBHOOK_ALLOW_CIDRS: 'everything' })).toThrow('"everything"');
  });
});
