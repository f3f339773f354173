import type { Database, Executor } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import { missing } from './missing.ts';
import {
  currentSecretKeyId,
  isSealedSecret,
  isSealedWithCurrentKey,
  openSecret,
  sealSecret,
} from './secret-box.ts';

/** Any fixed number, next to the migrations' own (727 001): one sealing pass at a time. */
const SEALING_LOCK = 727_002;

export interface SealedCounts {
  webhooks: number;
  workflows: number;
  idempotencyKeys: number;
}

/**
 * Encrypts the secrets stored before encryption (docs/operations.md, "Secrets at rest"):
 * webhook secrets, previous secrets and custom header values, workflow secrets and previous
 * secrets that are still plaintext. With `rekey`, also everything sealed with a key other
 * than the current one, replayed responses included, so that an old key can be dropped.
 *
 * Idempotent and safe to run from several processes at once: it works in batches, each a
 * transaction holding one advisory lock and the row locks of the rows it rewrites (an API
 * call rotating a secret meanwhile waits, or is waited for), and picks only rows that still
 * need it. Throws, changing nothing more, when a value is sealed with a key it does not have.
 */
export async function sealStoredSecrets(
  db: Database,
  options: { rekey?: boolean; batchSize?: number } = {},
): Promise<SealedCounts> {
  const rekey = options.rekey ?? false;
  const batchSize = options.batchSize ?? 200;
  const prefix = rekey ? `enc:v1:${currentSecretKeyId()}:` : 'enc:v1:';
  const needs = (value: string | null) =>
    value !== null && (rekey ? !isSealedWithCurrentKey(value) : !isSealedSecret(value));
  const reseal = (value: string | null) =>
    needs(value) ? sealSecret(openSecret(value ?? missing('value'))) : value;
  const unsealed = (column: SQL) => sql`(${column} is not null and not starts_with(${column}, ${prefix}))`;

  const counts: SealedCounts = { webhooks: 0, workflows: 0, idempotencyKeys: 0 };
  const inBatches = async (step: (tx: Executor) => Promise<number>) => {
    let total = 0;
    for (;;) {
      const done = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${SEALING_LOCK})`);
        return step(tx);
      });
      total += done;
      if (done < batchSize) return total;
    }
  };

  counts.webhooks = await inBatches(async (tx) => {
    const { rows } = await tx.execute<{
      workspace_id: string;
      id: string;
      secret: string;
      previous_secret: string | null;
      headers: Record<string, string>;
    }>(sql`
      select workspace_id, id, secret, previous_secret, headers from webhooks
       where ${unsealed(sql`secret`)} or ${unsealed(sql`previous_secret`)}
          or exists (select 1 from jsonb_each_text(headers) h where ${unsealed(sql`h.value`)})
       order by workspace_id, id limit ${batchSize}`);
    for (const candidate of rows) {
      const row = await lockRow<{
        secret: string;
        previous_secret: string | null;
        headers: Record<string, string>;
      }>(tx, 'webhooks', candidate, sql`secret, previous_secret, headers`);
      if (!row) continue;
      const headers = Object.fromEntries(
        Object.entries(row.headers).map(([name, value]) => [name, reseal(value)]),
      );
      await tx.execute(sql`
        update webhooks set secret = ${reseal(row.secret)}, previous_secret = ${reseal(row.previous_secret)},
               headers = ${JSON.stringify(headers)}::jsonb
         where workspace_id = ${row.workspace_id} and id = ${row.id}`);
    }
    return rows.length;
  });

  counts.workflows = await inBatches(async (tx) => {
    const { rows } = await tx.execute<{
      workspace_id: string;
      id: string;
      secret: string | null;
      previous_secret: string | null;
    }>(sql`
      select workspace_id, id, secret, previous_secret from workflows
       where ${unsealed(sql`secret`)} or ${unsealed(sql`previous_secret`)}
       order by workspace_id, id limit ${batchSize}`);
    for (const candidate of rows) {
      const row = await lockRow<{ secret: string | null; previous_secret: string | null }>(
        tx,
        'workflows',
        candidate,
        sql`secret, previous_secret`,
      );
      if (!row) continue;
      await tx.execute(sql`
        update workflows set secret = ${reseal(row.secret)}, previous_secret = ${reseal(row.previous_secret)}
         where workspace_id = ${row.workspace_id} and id = ${row.id}`);
    }
    return rows.length;
  });

  if (rekey) {
    // Sealed replayed answers (the REST API's) get the new key; plaintext ones (the trigger
    // endpoint's, which show no secret) stay as they are.
    counts.idempotencyKeys = await inBatches(async (tx) => {
      const { rows } = await tx.execute<{ workspace_id: string; key: string; body: string }>(sql`
        select workspace_id, key, body from idempotency_keys
         where starts_with(body, 'enc:v1:') and not starts_with(body, ${prefix})
         order by workspace_id, key limit ${batchSize}`);
      for (const candidate of rows) {
        const [row] = (
          await tx.execute<{ workspace_id: string; key: string; body: string }>(sql`
            select workspace_id, key, body from idempotency_keys
             where workspace_id = ${candidate.workspace_id} and key = ${candidate.key} for update`)
        ).rows;
        if (!row) continue;
        await tx.execute(sql`
          update idempotency_keys set body = ${reseal(row.body)}
           where workspace_id = ${row.workspace_id} and key = ${row.key}`);
      }
      return rows.length;
    });
  }
  return counts;
}

/**
 * A row found by a scan across workspaces, locked and read again by its key: the scan takes
 * no locks (a sharded database locks rows of one workspace at a time; docs/scaling.md), so
 * the values rewritten are those read under the lock.
 */
async function lockRow<Row>(
  tx: Executor,
  table: 'webhooks' | 'workflows',
  row: { workspace_id: string; id: string },
  columns: SQL,
): Promise<(Row & { workspace_id: string; id: string }) | undefined> {
  const { rows } = await tx.execute(sql`
    select workspace_id, id, ${columns} from ${sql.identifier(table)}
     where workspace_id = ${row.workspace_id} and id = ${row.id} for update`);
  return rows[0] as (Row & { workspace_id: string; id: string }) | undefined;
}
