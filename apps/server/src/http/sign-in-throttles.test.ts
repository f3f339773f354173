import { request } from 'node:http';
import { setPassword } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

const PASSWORD = 'a long enough password';
const WRONG = 'not the password at all';

/** Behind a proxy (TRUST_PROXY=true): the client address is the right-most X-Forwarded-For entry. */
let proxied: TestApp;
/** No proxy: the address is the socket's; tests connect from several loopback addresses. */
let direct: TestApp;
/** A global limit of 3 failures, so the overall throttle is reached. */
let global: TestApp;

beforeAll(async () => {
  [proxied, direct, global] = await Promise.all([
    startTestApp({
      env: {
        TRUST_PROXY: 'true',
        SIGN_IN_MAX_FAILURES_PER_ADDRESS: '5',
        SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '3',
      },
    }),
    startTestApp({
      env: { SIGN_IN_MAX_FAILURES_PER_ADDRESS: '5', SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '3' },
    }),
    startTestApp({ env: { TRUST_PROXY: 'true', SIGN_IN_MAX_FAILURES_GLOBAL: '3' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([proxied?.stop(), direct?.stop(), global?.stop()]);
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
}

/** POSTs JSON with exactly the headers given (fetch cannot set Host or pick the local address). */
function post(
  app: TestApp,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      ...(localAddress ? { localAddress } : {}),
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const signInFrom = (app: TestApp, email: string, password: string, forwardedFor: string) =>
  post(app, '/auth/sign-in', { email, password }, { 'X-Forwarded-For': forwardedFor });

async function ownerOf(app: TestApp) {
  const ws = await app.createWorkspace();
  const rows = await app.service.pool.query<{ email: string }>('select email from users where id = $1', [
    ws.userId,
  ]);
  const email = rows.rows[0]!.email;
  await setPassword(app.service.db, email, PASSWORD);
  return email;
}

function expectRateLimited(answer: Answer) {
  expect(answer.status).toBe(429);
  expect(answer.body.error).toMatchObject({ code: 'RATE_LIMITED' });
  expect(answer.body.error.message).toMatch(/^Too many failed sign-ins/);
  const retryAfter = Number(answer.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30 * 60).toBe(true);
  expect(answer.headers['set-cookie']).toBeUndefined();
}

describe('password spraying', () => {
  it('stops one address trying one password against many emails after 5 failures', async () => {
    const statuses: number[] = [];
    let last: Answer | undefined;
    for (let i = 0; i < 20; i++) {
      last = await signInFrom(proxied, `person${i}@example.com`, 'Winter2025!', '198.51.100.1');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    expectRateLimited(last!);
    // Another client is not affected.
    expect((await signInFrom(proxied, 'person0@example.com', WRONG, '198.51.100.2')).status).toBe(401);
  });

  it('checks only as many passwords as allowed when the attempts arrive at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        signInFrom(proxied, `at-once${i}@example.com`, WRONG, '198.51.100.3'),
      ),
    );
    expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(25);
  });

  it('takes the right-most X-Forwarded-For entry: entries a client adds in front change nothing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await signInFrom(
        proxied,
        `rotating${i}@example.com`,
        WRONG,
        `10.9.8.${i}, 198.51.100.4`,
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(3).fill(429)]);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: the socket address is counted', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await post(
        direct,
        '/auth/sign-in',
        { email: `direct${i}@example.com`, password: WRONG },
        { 'X-Forwarded-For': `10.7.7.${i}` },
        '127.0.0.2',
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(3).fill(429)]);
    const fromElsewhere = await post(
      direct,
      '/auth/sign-in',
      { email: 'direct0@example.com', password: WRONG },
      {},
      '127.0.0.3',
    );
    expect(fromElsewhere.status).toBe(401);
  });
});

describe('the account lock', () => {
  it('shuts out the address that hammered the account, not its owner elsewhere (X-Forwarded-For)', async () => {
    const email = await ownerOf(proxied);
    for (let i = 0; i < 3; i++) {
      expect((await signInFrom(proxied, email, WRONG, '198.51.100.10')).status).toBe(401);
    }
    const attacker = await signInFrom(proxied, email, PASSWORD, '198.51.100.10');
    expectRateLimited(attacker);
    expect(attacker.body.error.message).toContain('for this account');
    const owner = await signInFrom(proxied, email, PASSWORD, '198.51.100.11');
    expect(owner.status).toBe(200);
    expect(owner.headers['set-cookie']).toBeDefined();
    expectRateLimited(await signInFrom(proxied, email, PASSWORD, '198.51.100.10'));
  });

  it('does the same between two loopback addresses without a proxy', async () => {
    const email = await ownerOf(direct);
    const from = (address: string, password: string) =>
      post(direct, '/auth/sign-in', { email, password }, {}, address);
    for (let i = 0; i < 3; i++) expect((await from('127.0.0.4', WRONG)).status).toBe(401);
    expectRateLimited(await from('127.0.0.4', PASSWORD));
    expect((await from('127.0.0.5', PASSWORD)).status).toBe(200);
    expectRateLimited(await from('127.0.0.4', PASSWORD));
  });
});

describe('the global throttle', () => {
  it('past 3 failures overall, refuses addresses that failed and still lets the others sign in', async () => {
    const email = await ownerOf(global);
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      expect((await signInFrom(global, `nobody@${address}.example`, WRONG, address)).status).toBe(401);
    }
    const refused = await signInFrom(global, email, PASSWORD, '192.0.2.1');
    expectRateLimited(refused);
    expect(refused.body.error.message).toContain('overall');
    expect((await signInFrom(global, email, PASSWORD, '192.0.2.50')).status).toBe(200);
  });
});

describe('forwarded headers and the Origin check', () => {
  it('never takes X-Forwarded-Host for this server’s origin', async () => {
    const email = await ownerOf(proxied);
    const evil = await post(
      proxied,
      '/auth/sign-in',
      { email, password: PASSWORD },
      { 'X-Forwarded-For': '198.51.100.20', 'X-Forwarded-Host': 'evil.test', Origin: 'http://evil.test' },
    );
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe('FORBIDDEN');
    expect(evil.headers['set-cookie']).toBeUndefined();
    // The page of this server (the Host received) is accepted, whatever X-Forwarded-Host says.
    const own = await post(
      proxied,
      '/auth/sign-in',
      { email, password: PASSWORD },
      { 'X-Forwarded-For': '198.51.100.20', 'X-Forwarded-Host': 'evil.test', Origin: proxied.url },
    );
    expect(own.status).toBe(200);
    // The scheme is trusted from the proxy: a page served over HTTPS by it is this server's.
    const https = await post(
      proxied,
      '/auth/sign-in',
      { email, password: PASSWORD },
      {
        'X-Forwarded-For': '198.51.100.20',
        'X-Forwarded-Proto': 'https',
        Origin: proxied.url.replace('http:', 'https:'),
      },
    );
    expect(https.status).toBe(200);
    expect(String(https.headers['set-cookie'])).toContain('secure');
  });

  it('compares with PUBLIC_URL when it is set', async () => {
    const app = await startTestApp({ env: { PUBLIC_URL: 'https://crm.example.com' } });
    try {
      const email = await ownerOf(app);
      const host = await post(app, '/auth/sign-in', { email, password: PASSWORD }, { Origin: app.url });
      expect(host.status).toBe(403);
      const own = await post(
        app,
        '/auth/sign-in',
        { email, password: PASSWORD },
        { Origin: 'https://crm.example.com' },
      );
      expect(own.status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
