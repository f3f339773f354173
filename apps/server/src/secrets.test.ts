import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import {
  claimDueDeliveries,
  configureSecretKeys,
  createApiKey,
  createWorkspace,
  openSecret,
} from '@crm/domain';
import { sendDelivery } from '@crm/webhooks';
import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { outboundSettings } from './outbound.ts';
import { type Service, startService } from './service.ts';
import { Receiver } from './testing/receiver.ts';

/** A logger writing its JSON lines to `lines` (as in logger.test.ts). */
function capturingLogger(level = 'info') {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const TOKEN = 'Bearer canary-token-0123456789';

describe('the service', () => {
  let database: TestDatabase;
  let service: Service;
  let capture: ReturnType<typeof capturingLogger>;
  let apiKey: string;
  let workspaceId: string;
  const receiver = new Receiver();

  beforeAll(async () => {
    database = await createTestDatabase();
    capture = capturingLogger();
    const env = readEnv({
      DATABASE_URL: database.connectionString,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ROLE: 'api',
      OPS_PORT: '0',
      DATABASE_POOL_SIZE: '5',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      SECRETS_KEY: process.env.SECRETS_KEY!,
    });
    service = await startService(env, capture.logger);
    const owner = await createWorkspace(service.db, {
      name: 'Secrets',
      owner: { email: `owner.${Date.now()}@example.com`, name: 'Owner' },
    });
    workspaceId = owner.workspaceId;
    apiKey = (await createApiKey(service.db, { ...owner, name: 'test' })).secret;
    await receiver.start();
  });
  beforeEach(() => {
    capture.lines.length = 0;
  });
  afterAll(async () => {
    await receiver.stop();
    await service?.stop();
    await database?.drop();
  });

  async function api(method: string, path: string, body?: unknown) {
    const res = await fetch(`${service.url}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      text,
      body: text ? JSON.parse(text) : undefined,
      requestId: res.headers.get('x-request-id'),
    };
  }

  it('keeps no plaintext secret or header value in the tables, and still signs and sends them right', async () => {
    const created = await api('POST', '/webhooks', {
      url: `${receiver.url}/hook`,
      events: ['*'],
      headers: { Authorization: TOKEN },
    });
    expect(created.status, created.text).toBe(201);
    const secret: string = created.body.data.secret;
    const { rows } = await service.db.execute<{ secret: string; headers: unknown }>(
      sql`select secret, headers from webhooks where id = ${created.body.data.id}`,
    );
    const raw = JSON.stringify(rows);
    expect(raw).not.toContain(secret.slice('whsec_'.length));
    expect(raw).not.toContain('canary-token');
    expect(raw).toContain('"Authorization"');
    expect(openSecret(rows[0]!.secret)).toBe(secret);
    expect((await api('GET', `/webhooks/${created.body.data.id}`)).body.data.headers).toEqual({
      Authorization: 'Bear…',
    });

    const workflow = await api('POST', '/workflows', {
      name: 'Signed',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CONDITION', left: 1, operator: 'EXISTS' }],
      requireSignature: true,
    });
    expect(workflow.status, workflow.text).toBe(201);
    const workflowSecret: string = workflow.body.data.secret;
    const stored = await service.db.execute<{ secret: string }>(
      sql`select secret from workflows where id = ${workflow.body.data.id}`,
    );
    expect(stored.rows[0]!.secret).toMatch(/^enc:v1:/);
    expect(JSON.stringify(stored.rows)).not.toContain(workflowSecret.slice('whsec_'.length));

    // A delivery is signed with the secret shown at creation and carries the header value.
    expect((await api('POST', `/webhooks/${created.body.data.id}/test`)).status).toBe(200);
    const [delivery] = await claimDueDeliveries(service.db, 10);
    const outcome = await sendDelivery(
      delivery!,
      delivery!.event!,
      outboundSettings(readEnv({ WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' })),
    );
    expect(outcome.status).toBe(200);
    const request = receiver.requests.at(-1)!;
    expect(request.headers.authorization).toBe(TOKEN);
    const body = request.body.toString('utf8');
    expect(await verifyGithubStyle(secret, body, request.headers['x-service-signature'] as string)).toBe(
      true,
    );
    expect(() =>
      new Webhook(secret).verify(body, {
        'webhook-id': request.headers['webhook-id'] as string,
        'webhook-timestamp': request.headers['webhook-timestamp'] as string,
        'webhook-signature': request.headers['webhook-signature'] as string,
      }),
    ).not.toThrow();

    // The trigger URL checks calls against the workflow's secret.
    const call = (signature: string) =>
      fetch(`${service.url}/api/webhooks/trigger/${workflow.body.data.id}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signature },
        body: '{"a":1}',
      });
    const good = `sha256=${createHmac('sha256', workflowSecret).update('{"a":1}').digest('hex')}`;
    expect((await call(good)).status).toBe(200);
    expect((await call(`sha256=${'0'.repeat(64)}`)).status).toBe(401);

    expect(capture.lines.join('')).not.toContain(secret);
    expect(capture.lines.join('')).not.toContain('canary-token');
  });

  it('logs a webhook or workflow create the database refuses without its secrets or parameters', async () => {
    await service.db.execute(sql`alter table webhooks add constraint refuse_new check (false) not valid`);
    await service.db.execute(sql`alter table workflows rename column name to name_gone`);
    const hookInput = {
      url: `${receiver.url}/refused`,
      events: ['*'],
      headers: { Authorization: TOKEN },
      description: 'canary-description',
    };
    const workflowInput = {
      name: 'canary-workflow-name',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CONDITION', left: 'canary-action-value', operator: 'EXISTS' }],
      requireSignature: true,
    };
    /** The web app's path: tRPC, which logs the cause of a 5xx under the request's id. */
    const trpc = async (procedure: string, input: unknown) => {
      const res = await fetch(`${service.url}/trpc/${procedure}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(input),
      });
      await res.text();
      return { status: res.status, requestId: res.headers.get('x-request-id') };
    };
    try {
      const restHook = await api('POST', '/webhooks', hookInput);
      expect(restHook.status).toBe(500);
      const restWorkflow = await api('POST', '/workflows', workflowInput);
      expect(restWorkflow.status).toBe(500);
      const hook = await trpc('webhooks.create', hookInput);
      expect(hook.status).toBe(500);
      const workflow = await trpc('workflows.create', workflowInput);
      expect(workflow.status).toBe(500);

      const text = capture.lines.join('');
      for (const leak of [
        'whsec_',
        'canary-token',
        'canary-description',
        'canary-workflow-name',
        'canary-action-value',
        'enc:v1:',
        'params',
        'Failing row',
      ]) {
        expect(text).not.toContain(leak);
      }

      const failures = capture.parsed().filter((line) => line.msg === 'request failed');
      expect(failures.map((line) => line.requestId)).toEqual([
        restHook.requestId,
        restWorkflow.requestId,
        hook.requestId,
        workflow.requestId,
      ]);
      const chain = (line: Record<string, unknown>) => {
        const errors: Record<string, unknown>[] = [];
        for (let e = line.err as Record<string, unknown> | undefined; e; e = e.cause as typeof e)
          errors.push(e);
        return errors;
      };
      const hookChain = chain(failures[0]!);
      expect(hookChain.some((e) => String(e.query).startsWith('insert into "webhooks"'))).toBe(true);
      expect(hookChain.some((e) => e.code === '23514' && e.constraint === 'refuse_new')).toBe(true);
      const workflowChain = chain(failures[1]!);
      expect(workflowChain.some((e) => String(e.query).startsWith('insert into "workflows"'))).toBe(true);
      expect(
        workflowChain.some(
          (e) =>
            e.code === '42703' &&
            /column "name" of relation "workflows" does not exist/.test(String(e.message)),
        ),
      ).toBe(true);
    } finally {
      await service.db.execute(sql`alter table workflows rename column name_gone to name`);
      await service.db.execute(sql`alter table webhooks drop constraint refuse_new`);
    }
    const { rows } = await service.db.execute<{ n: number }>(
      sql`select count(*)::int as n from webhooks where workspace_id = ${workspaceId} and description = 'canary-description'`,
    );
    expect(rows[0]!.n).toBe(0);
  });
  // Last: it sets this process's keyring to the key file's, then gives the test key back.
  it('without SECRETS_KEY makes a key file in the data folder, and warns when the database is external', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'crm-data-'));
    const other = await createTestDatabase();
    const log = capturingLogger();
    const env = readEnv({
      DATABASE_URL: other.connectionString,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ROLE: 'api',
      OPS_PORT: '0',
      DATABASE_POOL_SIZE: '2',
    });
    const second = await startService(env, log.logger);
    try {
      const keyFile = join(dataDir, 'secrets.key');
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      const lines = log.parsed();
      expect(lines.find((line) => line.msg === 'made a key for secrets at rest')).toMatchObject({ keyFile });
      expect(lines.find((line) => line.level === 'warn')).toMatchObject({ keyFile });
      expect(log.lines.join('')).not.toContain((await readFile(keyFile, 'utf8')).trim());
    } finally {
      await second.stop();
      await other.drop();
      await rm(dataDir, { recursive: true, force: true });
      configureSecretKeys({ current: process.env.SECRETS_KEY! });
    }
  });
});
