import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createWebhook } from '../webhooks/create-webhook.ts';
import { loadWebhook } from '../webhooks/load-webhook.ts';
import { rotateWebhookSecret } from '../webhooks/rotate-webhook-secret.ts';
import { serializeWebhook } from '../webhooks/serialize.ts';
import { updateWebhook } from '../webhooks/update-webhook.ts';
import { createWorkflow, rotateWorkflowSecret, updateWorkflow } from '../workflows/index.ts';
import { createWorkflowInput } from '../workflows/schemas.ts';
import {
  configureSecretKeys,
  currentSecretKeyId,
  generateSecretKey,
  openSecret,
  sealSecret,
  secretKeyId,
} from './secret-box.ts';
import { sealStoredSecrets } from './secrets-at-rest.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

// The test key of tooling/vitest/setup-env.ts, restored after a test that rotates keys.
const testKey = process.env.SECRETS_KEY!;
afterEach(() => configureSecretKeys({ current: testKey }));

const TOKEN = 'Bearer tok-0123456789-abcdef';
const services = { baseUrl: '', checkOutboundUrl: async () => {} };

async function webhookWithToken() {
  const { actor } = await newWorkspace(t.db);
  const hook = await createWebhook(
    t.db,
    actor,
    {
      url: 'https://hooks.example.com/x',
      events: ['*'],
      headers: { Authorization: TOKEN, 'X-Short': 'abc' },
    },
    services,
  );
  return { actor, hook };
}

async function signedWorkflow() {
  const { actor } = await newWorkspace(t.db);
  const workflow = await createWorkflow(
    t.db,
    actor,
    createWorkflowInput.parse({
      name: 'Signed',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CONDITION', left: 1, operator: 'EXISTS' }],
      requireSignature: true,
    }),
    services,
  );
  return { actor, workflow };
}

const webhookRow = async (id: string) =>
  (
    await t.query<{ secret: string; previous_secret: string | null; headers: Record<string, string> }>(
      'select secret, previous_secret, headers from webhooks where id = $1',
      [id],
    )
  )[0]!;
const workflowRow = async (id: string) =>
  (
    await t.query<{ secret: string | null; previous_secret: string | null }>(
      'select secret, previous_secret from workflows where id = $1',
      [id],
    )
  )[0]!;

const SEALED = /^enc:v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/;

describe('secrets at rest', () => {
  it('stores a webhook secret and its custom header values sealed; the API shows the same as before', async () => {
    const { actor, hook } = await webhookWithToken();
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.headers).toEqual({ Authorization: 'Bear…', 'X-Short': '…' });
    const row = await webhookRow(hook.id);
    expect(row.secret).toMatch(SEALED);
    expect(Object.keys(row.headers).sort()).toEqual(['Authorization', 'X-Short']);
    expect(row.headers.Authorization).toMatch(SEALED);
    expect(row.headers['X-Short']).toMatch(SEALED);
    const raw = JSON.stringify(row);
    expect(raw).not.toContain(hook.secret.slice(6));
    expect(raw).not.toContain('tok-0123456789');
    expect(openSecret(row.secret)).toBe(hook.secret);
    expect(openSecret(row.headers.Authorization!)).toBe(TOKEN);
    expect(serializeWebhook(await loadWebhook(t.db, actor, hook.id))).toEqual(
      Object.fromEntries(Object.entries(hook).filter(([key]) => key !== 'secret')),
    );

    // A masked value sent back keeps the stored one; a new value is sealed too.
    const updated = await updateWebhook(
      t.db,
      actor,
      { id: hook.id, headers: { Authorization: 'Bear…', 'X-Other': 'another-token-value' } },
      services,
    );
    expect(updated.headers).toEqual({ Authorization: 'Bear…', 'X-Other': 'anot…' });
    const after = await webhookRow(hook.id);
    expect(after.headers.Authorization).toMatch(SEALED);
    expect(after.headers['X-Other']).toMatch(SEALED);
    expect(openSecret(after.headers.Authorization!)).toBe(TOKEN);
    expect(openSecret(after.headers['X-Other']!)).toBe('another-token-value');
    // The same headers again change nothing (compared as plaintext, not as fresh ciphertexts).
    await updateWebhook(t.db, actor, { id: hook.id, headers: updated.headers }, services);
    expect((await webhookRow(hook.id)).headers).toEqual(after.headers);

    const rotated = await rotateWebhookSecret(t.db, actor, hook.id);
    const rotatedRow = await webhookRow(hook.id);
    expect(rotatedRow.secret).toMatch(SEALED);
    expect(openSecret(rotatedRow.secret)).toBe(rotated.secret);
    expect(rotatedRow.previous_secret).toBe(row.secret);
  });

  it('stores a workflow secret sealed, on create, on update and on rotation', async () => {
    const { actor, workflow } = await signedWorkflow();
    expect(workflow.secret).toMatch(/^whsec_/);
    const row = await workflowRow(workflow.id);
    expect(row.secret).toMatch(SEALED);
    expect(openSecret(row.secret!)).toBe(workflow.secret);

    const rotated = await rotateWorkflowSecret(t.db, actor, workflow.id, services);
    const rotatedRow = await workflowRow(workflow.id);
    expect(openSecret(rotatedRow.secret!)).toBe(rotated.secret);
    expect(rotatedRow.previous_secret).toBe(row.secret);

    await updateWorkflow(t.db, actor, { id: workflow.id, requireSignature: false }, services);
    const again = await updateWorkflow(t.db, actor, { id: workflow.id, requireSignature: true }, services);
    const againRow = await workflowRow(workflow.id);
    expect(againRow.secret).toMatch(SEALED);
    expect(openSecret(againRow.secret!)).toBe(again.secret);
  });

  it('seals plaintext left from before encryption, once, also when processes race to do it', async () => {
    const { actor, hook } = await webhookWithToken();
    const { workflow } = await signedWorkflow();
    await t.query(
      `update webhooks set secret = 'whsec_legacy', previous_secret = 'whsec_older',
         previous_secret_expires_at = now() + interval '1 hour',
         headers = jsonb_build_object('Authorization', 'Bearer legacy-token-123', 'X-Sealed', $2::text)
       where id = $1`,
      [hook.id, sealSecret('already sealed')],
    );
    await t.query(`update workflows set secret = 'whsec_wf_legacy' where id = $1`, [workflow.id]);
    // What the API shows of legacy rows is unchanged.
    expect(serializeWebhook(await loadWebhook(t.db, actor, hook.id)).headers).toEqual({
      Authorization: 'Bear…',
      'X-Sealed': 'alre…',
    });

    const runs = await Promise.all([
      sealStoredSecrets(t.db),
      sealStoredSecrets(t.db),
      sealStoredSecrets(t.db),
    ]);
    expect(runs.reduce((n, r) => n + r.webhooks, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + r.workflows, 0)).toBe(1);
    const left = await t.query<{ n: number }>(
      `select count(*)::int as n from webhooks
        where not starts_with(secret, 'enc:v1:') or not starts_with(previous_secret, 'enc:v1:')
           or exists (select 1 from jsonb_each_text(headers) h where not starts_with(h.value, 'enc:v1:'))`,
    );
    expect(left[0]!.n).toBe(0);

    const row = await webhookRow(hook.id);
    expect(openSecret(row.secret)).toBe('whsec_legacy');
    expect(openSecret(row.previous_secret!)).toBe('whsec_older');
    expect(openSecret(row.headers.Authorization!)).toBe('Bearer legacy-token-123');
    expect(openSecret(row.headers['X-Sealed']!)).toBe('already sealed');
    expect(openSecret((await workflowRow(workflow.id)).secret!)).toBe('whsec_wf_legacy');

    // Nothing is left to do: a second pass changes nothing.
    const before = await webhookRow(hook.id);
    expect(await sealStoredSecrets(t.db)).toEqual({ webhooks: 0, workflows: 0, idempotencyKeys: 0 });
    expect(await webhookRow(hook.id)).toEqual(before);
  });

  it('re-encrypts everything under a new key, replayed responses too, so the old key can go', async () => {
    const { actor, hook } = await webhookWithToken();
    const { workflow } = await signedWorkflow();
    await rotateWebhookSecret(t.db, actor, hook.id);
    await t.query(
      `insert into idempotency_keys (workspace_id, key, fingerprint, state, status, headers, body, created_at, updated_at)
       values ($1, 'k-sealed', 'f', 'done', 201, '{}', $2, now(), now()),
              ($1, 'k-plain', 'f', 'done', 201, '{}', '{"data":{}}', now(), now())`,
      [actor.workspaceId, sealSecret('{"data":{"secret":"whsec_replayed"}}')],
    );
    const oldKeyId = currentSecretKeyId();

    const newKey = generateSecretKey();
    configureSecretKeys({ current: newKey, previous: testKey });
    const counts = await sealStoredSecrets(t.db, { rekey: true });
    expect(counts.webhooks).toBeGreaterThanOrEqual(1);
    expect(counts.workflows).toBeGreaterThanOrEqual(1);
    expect(counts.idempotencyKeys).toBeGreaterThanOrEqual(1);

    const newPrefix = `enc:v1:${secretKeyId(newKey)}:`;
    const stale = await t.query<{ n: number }>(
      `select (select count(*) from webhooks
                where not starts_with(secret, $1) or not starts_with(coalesce(previous_secret, $1), $1)
                   or exists (select 1 from jsonb_each_text(headers) h where not starts_with(h.value, $1)))
            + (select count(*) from workflows where not starts_with(coalesce(secret, $1), $1)
                   or not starts_with(coalesce(previous_secret, $1), $1))
            + (select count(*) from idempotency_keys where starts_with(body, 'enc:v1:') and not starts_with(body, $1))
            as n`,
      [newPrefix],
    );
    expect(Number(stale[0]!.n)).toBe(0);
    expect(
      JSON.stringify(await t.query('select secret, previous_secret, headers from webhooks')),
    ).not.toContain(`enc:v1:${oldKeyId}:`);

    // The old key dropped: everything still opens.
    configureSecretKeys({ current: newKey });
    const row = await webhookRow(hook.id);
    expect(openSecret(row.headers.Authorization!)).toBe(TOKEN);
    expect(openSecret(row.previous_secret!)).toBe(hook.secret);
    expect(openSecret((await workflowRow(workflow.id)).secret!)).toBe(workflow.secret);
    const bodies = await t.query<{ key: string; body: string }>(
      `select key, body from idempotency_keys where workspace_id = $1 order by key`,
      [actor.workspaceId],
    );
    expect(bodies.map((b) => [b.key, openSecret(b.body)])).toEqual([
      ['k-plain', '{"data":{}}'],
      ['k-sealed', '{"data":{"secret":"whsec_replayed"}}'],
    ]);
    expect(await sealStoredSecrets(t.db, { rekey: true })).toEqual({
      webhooks: 0,
      workflows: 0,
      idempotencyKeys: 0,
    });
  });

  it('refuses to re-encrypt a value sealed with a key it was not given', async () => {
    const { hook } = await webhookWithToken();
    configureSecretKeys({ current: generateSecretKey() });
    const foreign = sealSecret('whsec_foreign');
    configureSecretKeys({ current: testKey });
    await t.query('update webhooks set secret = $2 where id = $1', [hook.id, foreign]);
    await expect(sealStoredSecrets(t.db, { rekey: true })).rejects.toThrow(/neither SECRETS_KEY nor/);
    expect((await webhookRow(hook.id)).secret).toBe(foreign);
    await t.query('delete from webhooks where id = $1', [hook.id]);
  });
});
