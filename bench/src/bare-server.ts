/**
 * The floor the service is compared with: node:http and two pg.Pools, no framework, no
 * validation library, no ORM. It serves the routes the benchmark loads with the same JSON
 * envelopes as the service, and sends Postgres the same statements per request, with the
 * same parameters, on the same kind of pool:
 *
 *   1. the API-key lookup when the key is not kept in memory (as ApiKeyCache keeps it: for
 *      30 s, while a LISTEN on crm_auth is in effect), and the batched last-used update
 *      every 5 s (a key's first use at once);
 *   2. the rate-limit statement of consumeRateLimits, counting the requests that waited
 *      while the previous one was in flight together, with the extra tokens of a lease for a
 *      busy subject (as RateLimitBatcher with RateLimitLeases), on a second small pool whose
 *      sessions run with synchronous_commit=off, sized like the service's counters pool; and
 *      the statement giving back what a lease did not use, on a timer;
 *   3. the resource statements:
 *      - GET /api/v1/records/:id: the live record;
 *      - GET /api/v1/records: 51 live records newest first;
 *      - POST /api/v1/records: the folder (read once and kept, as the service's folder cache
 *        keeps it), then one statement without a transaction: the folder row FOR SHARE if its
 *        fields are unchanged, the insert and the record.created event;
 *      - POST /api/v1/deals: one read (the pipeline's stages, the workspace currency, the
 *        linked record), then one statement without a transaction: the chosen stage and the
 *        live record FOR SHARE, the insert, the link to that record (deal_links, when given)
 *        and the deal.created event;
 *      - PATCH /api/v1/deals/:id (stageId only): the deal with its linked record in one read,
 *        then one statement: the update guarded by the deal as read and the new stage FOR
 *        SHARE, and the deal.updated and deal.stage_changed events;
 *      - GET /api/v1/tasks?status=…&sort=dueAt: 51 tasks soonest due first.
 *
 * The SQL text is the service's, prepared under the same names where the domain prepares them
 * (auth_api_key, consume_rate_limits, record_key_uses, get_live_record, release_rate_limits,
 * create_record, create_deal_read, create_deal, move_deal): the statements the domain keeps as
 * text (counting and giving back rate-limit tokens, writing keys' uses) are imported from
 * @crm/domain; those the domain builds with drizzle are copied word for word, the reads in
 * bare-read-sql.ts and the writes in bare-write-sql.ts, and bare-sql.test.ts fails when a copy
 * differs from what the domain sends. Event payloads are built
 * as the domain builds them (the write statement also creates webhook deliveries and queues
 * workflow starts when the workspace has subscriptions or workflows; the benchmark's
 * workspace has neither). Besides those statements, only pure helpers come from @crm/domain (id
 * generation and format check, search text, cursor encoding, rate-limit retry maths, and the
 * Coalescer and lease book the service counts its rate limits with), so both servers do the same
 * work outside the database.
 *
 * With BARE_FLOOR=1 it is the second floor instead: the resource statements alone (3.), with
 * the key looked up once and no rate limit, the least SQL that does the same visible work;
 * a record's create is its INSERT alone (no folder lock, no event).
 *
 * Env: DATABASE_URL, PORT, HOST (default 127.0.0.1), DATABASE_POOL_SIZE (default 10), BARE_FLOOR.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FieldDefinition } from '@crm/db/schema';
import {
  CONSUME_SQL,
  Coalescer,
  encodeCursor,
  isId,
  missing,
  newId,
  RateLimitLeases,
  type RateLimitRelease,
  RECORD_KEY_USES_SQL,
  RELEASE_RATE_LIMITS_SQL,
  searchSignature,
  searchTextOf,
  secondsUntilSlot,
} from '@crm/domain';
import pg from 'pg';
import {
  AUTH_SQL,
  FOLDER_SQL,
  GET_RECORD_SQL,
  INSERT_RECORD_ALONE_SQL,
  LIST_RECORDS_SQL,
  TASKS_BY_DUE_SQL,
} from './bare-read-sql.ts';
import {
  afterEventsValues,
  CREATE_DEAL_READ_SQL,
  CREATE_DEAL_SQL,
  CREATE_RECORD_SQL,
  DEAL_WITH_RECORD_SQL,
  MOVE_DEAL_SQL,
} from './bare-write-sql.ts';

/** Folders read so far, as the service's folder cache keeps them (the benchmark never changes one). */
const folders = new Map<string, Promise<{ id: string; fields: FieldDefinition[] } | undefined>>();

function folderOf(workspaceId: string, folderId: string) {
  const key = `${workspaceId} ${folderId}`;
  let folder = folders.get(key);
  if (!folder) {
    folder = pool
      .query<{ id: string; fields: FieldDefinition[] }>(FOLDER_SQL, [workspaceId, folderId])
      .then((r) => r.rows[0]);
    folders.set(key, folder);
    folder.catch(() => folders.delete(key));
  }
  return folder;
}

interface RecordRow {
  workspace_id: string;
  id: string;
  folder_id: string;
  title: string;
  email: string | null;
  phone: string | null;
  data: Record<string, unknown>;
  owner_id: string | null;
  search_text?: string;
  created_at: Date;
  updated_at: Date;
  trashed_at: Date | null;
}

interface DealRow {
  workspace_id: string;
  id: string;
  pipeline_id: string;
  stage_id: string;
  title: string | null;
  amount: string | null;
  currency: string;
  close_date: string | null;
  data: Record<string, unknown>;
  record_id: string | null;
  created_at: Date;
  updated_at: Date;
}

interface TaskRow {
  id: string;
  title: string;
  due_at: Date | null;
  assignee_id: string | null;
  record_id: string | null;
  status: string;
  priority: string;
  type: string;
  recurrence: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface KeyRow {
  id: string;
  key_name: string;
  workspace_id: string;
  user_id: string;
  scopes: string[];
  folder_ids: string[] | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  name: string;
  role: string;
  rate_limit_per_minute: number;
}

/** AUTH_SQL's columns in order. */
const KEY_COLUMNS = [
  'id',
  'key_name',
  'workspace_id',
  'user_id',
  'scopes',
  'folder_ids',
  'expires_at',
  'revoked_at',
  'last_used_at',
  'name',
  'role',
  'rate_limit_per_minute',
] as const;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
/** Timeouts as @crm/db's createPool sets them for the service's pools. */
const poolTimeouts = { connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 };
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: poolSize,
  application_name: 'crm-bare',
  ...poolTimeouts,
});
pool.on('error', () => {});
/**
 * Rate-limit counters commit without waiting for the WAL flush, on a pool sized like the
 * service's counters pool (createPool with synchronousCommit: false in apps/server).
 */
const countersPool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Math.max(2, Math.ceil(poolSize / 4)),
  application_name: 'crm-bare-counters',
  options: '-c synchronous_commit=off',
  ...poolTimeouts,
});
countersPool.on('error', () => {});

function serialize(row: RecordRow) {
  return {
    id: row.id,
    folderId: row.folder_id,
    title: row.title,
    email: row.email,
    phone: row.phone,
    data: row.data,
    ownerId: row.owner_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    trashedAt: row.trashed_at ? row.trashed_at.toISOString() : null,
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

interface KeptKey {
  key: KeyRow;
  loadedAt: number;
  /** When the key was last known used (stored, or noted here). */
  lastUsedAt: number | null;
}

/** Keys verified and kept, by secret hash: only while the LISTEN below is in effect. */
const keptKeys = new Map<string, KeptKey>();
let listening = false;
let keyGeneration = 0;
/** Uses noted since the last flush, by key id. */
const keyUses = new Map<string, { workspaceId: string; at: Date }>();

function recordKeyUses(uses: { keyId: string; workspaceId: string; at: Date }[]) {
  return pool.query({
    name: 'record_key_uses',
    text: RECORD_KEY_USES_SQL,
    values: [uses.map((u) => u.workspaceId), uses.map((u) => u.keyId), uses.map((u) => u.at)],
  });
}

function noteKeyUse(kept: KeptKey, now: number) {
  if (kept.lastUsedAt !== null && now - kept.lastUsedAt < 60_000) return;
  kept.lastUsedAt = now;
  keyUses.set(kept.key.id, { workspaceId: kept.key.workspace_id, at: new Date(now) });
}

setInterval(() => {
  if (keyUses.size === 0) return;
  const uses = [...keyUses].map(([keyId, use]) => ({ keyId, ...use }));
  keyUses.clear();
  recordKeyUses(uses).catch(() => {});
}, 5_000).unref();

/** The LISTEN that lets keys be kept: any notification drops them all. */
async function listenForKeyChanges() {
  const client = await pool.connect();
  client.on('notification', () => {
    keyGeneration++;
    keptKeys.clear();
  });
  await client.query('listen crm_auth');
  listening = true;
}

/** (a) ApiKeyCache.authenticate: from memory when kept, else the lookup of verifyApiKey. */
async function authenticate(req: IncomingMessage): Promise<KeyRow> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) throw new HttpError(401, 'UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>');
  const hash = createHash('sha256')
    .update(match[1] ?? missing('match[1]'), 'utf8')
    .digest('hex');
  const now = Date.now();
  const kept = keptKeys.get(hash);
  if (kept && now - kept.loadedAt < 30_000) {
    if (kept.key.expires_at && kept.key.expires_at.getTime() <= now) {
      keptKeys.delete(hash);
      throw new HttpError(401, 'UNAUTHORIZED', 'This API key has expired');
    }
    noteKeyUse(kept, now);
    return kept.key;
  }
  const generation = keyGeneration;
  const { rows } = await pool.query<unknown[]>({
    name: 'auth_api_key',
    text: AUTH_SQL,
    values: [hash],
    rowMode: 'array',
  });
  const key = rows[0]
    ? (Object.fromEntries(
        KEY_COLUMNS.map((column, i) => [column, (rows[0] ?? missing('rows[0]'))[i]]),
      ) as unknown as KeyRow)
    : undefined;
  if (!key) throw new HttpError(401, 'UNAUTHORIZED', 'Invalid API key');
  if (key.revoked_at) throw new HttpError(401, 'UNAUTHORIZED', 'This API key has been revoked');
  if (key.expires_at && key.expires_at.getTime() <= now)
    throw new HttpError(401, 'UNAUTHORIZED', 'This API key has expired');
  const entry: KeptKey = { key, loadedAt: now, lastUsedAt: key.last_used_at?.getTime() ?? null };
  if (entry.lastUsedAt === null) {
    await recordKeyUses([{ keyId: key.id, workspaceId: key.workspace_id, at: new Date(now) }]);
    entry.lastUsedAt = now;
  } else {
    noteKeyUse(entry, now);
  }
  if (listening && generation === keyGeneration) keptKeys.set(hash, entry);
  return key;
}

/** Checked after the rate limit, as the service's authed procedure does. */
function requireScope(key: KeyRow, scope: 'read' | 'write') {
  if (!key.scopes.includes(scope))
    throw new HttpError(403, 'FORBIDDEN', `This API key lacks the ${scope} scope`);
}

interface RateLimitRow {
  subject: string;
  previous: number;
  stored: number | null;
  count: number | null;
  last_grant: number | null;
}

interface LimitResult {
  allowed: boolean;
  remaining: number;
  reset: number;
  wait: number;
}

/** One subject's share of a counting statement: what each of its requests (or leased tokens) gets. */
interface LimitGrant {
  granted: number;
  windowStart: number;
  resultOf(index: number): LimitResult;
}

/** (b) RateLimitLeases, as RateLimitBatcher keeps them: tokens counted ahead for a busy subject. */
const leases = new RateLimitLeases<LimitGrant>();

/**
 * (b) RateLimitBatcher: requests that arrive while a counting statement is in flight wait for
 * it (the same Coalescer, under one key), then take what a lease granted meanwhile; one
 * consumeRateLimits statement counts the rest, grouped by subject, each group with the extra
 * tokens its lease asks for.
 */
const limits = new Coalescer<{ subject: string; limit: number }, LimitResult>(
  async (_key, calls) => {
    const now = Date.now();
    const results: LimitResult[] = new Array(calls.length);
    const groups = new Map<string, { limit: number; indexes: number[]; extra: number }>();
    calls.forEach((call, index) => {
      const token = leases.take(call.subject, call.limit, now);
      if (token) {
        results[index] = token.grant.resultOf(token.index);
        return;
      }
      const group = groups.get(call.subject);
      if (group) {
        group.limit = Math.min(group.limit, call.limit);
        group.indexes.push(index);
      } else {
        groups.set(call.subject, { limit: call.limit, indexes: [index], extra: 0 });
      }
    });
    if (groups.size === 0) return results;
    await releaseLeases(leases.expired(now));
    const batch = [...groups];
    for (const [subject, group] of batch) {
      group.extra = leases.extra(subject, group.limit, group.indexes.length, now);
    }
    const windowStart = now - (now % 60_000);
    const elapsed = now - windowStart;
    const weight = 1 - elapsed / 60_000;
    const { rows } = await countersPool.query<RateLimitRow>({
      name: 'consume_rate_limits',
      text: CONSUME_SQL,
      values: [
        batch.map(([subject]) => subject),
        batch.map(([, group]) => group.limit),
        batch.map(([, group]) => group.indexes.length + group.extra),
        batch.map(() => new Date(windowStart - 60_000)),
        batch.map(() => new Date(windowStart)),
        batch.map(() => weight),
      ],
    });
    const bySubject = new Map(rows.map((row) => [row.subject, row]));
    for (const [subject, { limit, indexes, extra }] of batch) {
      const row = bySubject.get(subject) ?? missing('bySubject.get(subject)');
      const granted = row.count === null ? 0 : (row.last_grant ?? 0);
      const after = row.count ?? row.stored ?? 0;
      const before = after - granted;
      const wait = secondsUntilSlot(row.previous, after, limit, elapsed / 1000);
      const reset = Math.max(1, Math.ceil((60_000 - elapsed) / 1000));
      const grant: LimitGrant = {
        granted,
        windowStart,
        resultOf(i) {
          const allowed = i < granted;
          const used = row.previous * weight + (allowed ? before + i + 1 : after);
          return { allowed, remaining: Math.max(0, Math.floor(limit - used)), reset, wait };
        },
      };
      indexes.forEach((index, i) => {
        results[index] = grant.resultOf(i);
      });
      leases.keep(subject, {
        limit,
        waiting: indexes.length,
        asked: extra,
        granted,
        remaining: granted > 0 ? grant.resultOf(granted - 1).remaining : 0,
        windowStart,
        windowEnd: windowStart + 60_000,
        grant,
        now,
      });
    }
    return results;
  },
  { maxBatch: 2_000 },
);

/** Unused tokens of ended leases go back, as RateLimitBatcher's sweep gives them back. */
async function releaseLeases(released: RateLimitRelease[]): Promise<void> {
  if (released.length === 0) return;
  await countersPool
    .query({
      name: 'release_rate_limits',
      text: RELEASE_RATE_LIMITS_SQL,
      values: [
        released.map((r) => r.subject),
        released.map((r) => new Date(r.windowStart)),
        released.map((r) => r.count),
      ],
    })
    .catch(() => undefined);
}

/** Counts the request against its workspace's limit and sets the RateLimit-* headers. */
async function rateLimit(res: ServerResponse, key: KeyRow): Promise<void> {
  const subject = `ws:${key.workspace_id}`;
  const limit = key.rate_limit_per_minute;
  const token = leases.take(subject, limit, Date.now());
  const result = token ? token.grant.resultOf(token.index) : await limits.submit('', { subject, limit });
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(result.remaining));
  res.setHeader('RateLimit-Reset', String(result.remaining > 0 ? result.reset : result.wait));
  if (!result.allowed) {
    res.setHeader('Retry-After', String(result.wait));
    throw new HttpError(429, 'RATE_LIMITED', `Rate limit of ${limit} requests a minute reached`);
  }
}

async function getRecord(res: ServerResponse, key: KeyRow, id: string) {
  if (!isId('record', id)) throw new HttpError(404, 'NOT_FOUND', `Record ${id} not found`);
  const { rows } = await pool.query<RecordRow>({
    name: 'get_live_record',
    text: GET_RECORD_SQL,
    values: [key.workspace_id, id],
  });
  const row = rows[0];
  if (!row || row.trashed_at !== null) throw new HttpError(404, 'NOT_FOUND', `Record ${id} not found`);
  send(res, 200, { data: serialize(row) });
}

/**
 * `meta.nextUrl` as the service writes it: this request's URL with `cursor` set to the next
 * cursor and `page` left out, or null on the last page.
 */
function nextUrlOf(url: URL, host: string | undefined, nextCursor: string | null): string | null {
  if (nextCursor === null) return null;
  const params = new URLSearchParams(url.search);
  params.delete('page');
  params.set('cursor', nextCursor);
  return `http://${host}${url.pathname}?${params.toString()}`;
}

async function listRecords(res: ServerResponse, key: KeyRow, url: URL, host: string | undefined) {
  const query = url.searchParams;
  const pageSize = query.has('pageSize') ? Number(query.get('pageSize')) : 50;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'pageSize must be between 1 and 200');
  }
  const { rows } = await pool.query<RecordRow>(LIST_RECORDS_SQL, [key.workspace_id, pageSize + 1]);
  const hasMore = rows.length > pageSize;
  const visible = hasMore ? rows.slice(0, pageSize) : rows;
  const last = visible[visible.length - 1];
  const nextCursor =
    hasMore && last ? encodeCursor({ createdAt: last.created_at.toISOString(), id: last.id }) : null;
  send(res, 200, {
    data: visible.map(serialize),
    meta: { page: 1, pageSize, hasMore, nextCursor, nextUrl: nextUrlOf(url, host, nextCursor) },
  });
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'VALIDATION_FAILED', 'The request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'The request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

const optionalText = (value: unknown) => (typeof value === 'string' ? value.trim() : null);

/** The request's id, as the service's events record it: the client's X-Request-Id, or a new one. */
const requestIdOf = (req: IncomingMessage) =>
  (req.headers['x-request-id'] as string | undefined) || randomUUID();

async function createRecord(req: IncomingMessage, res: ServerResponse, key: KeyRow) {
  const requestId = requestIdOf(req);
  const body = await readJson(req);
  const title = typeof body.title === 'string' ? body.title.trim() : '';
  if (typeof body.folderId !== 'string' || title === '') {
    throw new HttpError(400, 'VALIDATION_FAILED', 'folderId and title are required');
  }
  const email = optionalText(body.email);
  const phone = optionalText(body.phone);
  const given = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : {};
  const data = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== null));
  const ws = key.workspace_id;
  const folder = await folderOf(ws, body.folderId);
  if (!folder) throw new HttpError(400, 'VALIDATION_FAILED', `folder ${body.folderId} does not exist`);
  const id = newId('record');
  const searchText = searchTextOf({ title, email, phone, data }, folder.fields);
  const record = (createdAt: string, updatedAt: string) => ({
    id,
    folderId: folder.id,
    title,
    email,
    phone,
    data,
    ownerId: null,
    createdAt,
    updatedAt,
    trashedAt: null,
  });
  const recordValues = [ws, id, folder.id, title, email, phone, JSON.stringify(data), searchText];
  if (FLOOR) {
    const inserted = await pool.query<{ created_at: Date; updated_at: Date }>(
      INSERT_RECORD_ALONE_SQL,
      recordValues,
    );
    const row = inserted.rows[0] ?? missing('inserted.rows[0]');
    return send(res, 201, { data: record(row.created_at.toISOString(), row.updated_at.toISOString()) });
  }
  const actor = { type: 'apiKey', id: key.id, name: key.key_name };
  const eventId = newId('event');
  const occurredAt = new Date().toISOString();
  const epoch = new Date(0).toISOString();
  const payload = {
    id: eventId,
    event: 'record.created',
    workspaceId: ws,
    occurredAt,
    recordId: id,
    folderId: folder.id,
    record: record(epoch, epoch),
    actor,
    source: 'rest',
    requestId,
  };
  const written = await pool.query<{ created_at: string; updated_at: string }>({
    name: 'create_record',
    text: CREATE_RECORD_SQL,
    values: [
      ...recordValues,
      searchSignature(searchText),
      ...[ws, folder.id, JSON.stringify(folder.fields)],
      ...[ws, eventId, 'record.created', JSON.stringify(payload), '{record,createdAt}', '{record,updatedAt}'],
      occurredAt,
      ...afterEventsValues(ws, actor, requestId, '[]'),
    ],
  });
  const row = written.rows[0];
  if (!row) throw new HttpError(409, 'CONFLICT', `folder ${folder.id} changed; send the request again`);
  send(res, 201, { data: record(row.created_at, row.updated_at) });
}

function serializeDeal(row: DealRow) {
  return {
    id: row.id,
    pipelineId: row.pipeline_id,
    stageId: row.stage_id,
    title: row.title,
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    closeDate: row.close_date,
    data: row.data,
    recordId: row.record_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** createDeal: first stage unless one is given, currency from the workspace unless given. */
async function createDeal(req: IncomingMessage, res: ServerResponse, key: KeyRow) {
  const requestId = requestIdOf(req);
  const body = await readJson(req);
  const pipelineId = body.pipelineId;
  if (typeof pipelineId !== 'string') throw new HttpError(400, 'VALIDATION_FAILED', 'pipelineId is required');
  const title = typeof body.title === 'string' ? body.title.trim() : null;
  const amount = typeof body.amount === 'number' ? body.amount.toFixed(2) : null;
  const recordId = typeof body.recordId === 'string' ? body.recordId : null;
  const data = body.data && typeof body.data === 'object' ? body.data : {};
  const ws = key.workspace_id;
  if (!isId('pipeline', pipelineId) || (recordId && !isId('record', recordId)))
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      `pipeline ${pipelineId} or record ${recordId} does not exist`,
    );
  // One read: the pipeline's stages, the workspace's currency, the record (live or not).
  const read = await pool.query<RecordRow & { stage_ids: string[]; currency: string }>({
    name: 'create_deal_read',
    text: CREATE_DEAL_READ_SQL,
    values: [recordId, ws, pipelineId],
  });
  const found = read.rows[0];
  if (!found) throw new HttpError(400, 'VALIDATION_FAILED', `pipeline ${pipelineId} does not exist`);
  const stageId = typeof body.stageId === 'string' ? body.stageId : found.stage_ids[0];
  if (!stageId || !found.stage_ids.includes(stageId))
    throw new HttpError(400, 'VALIDATION_FAILED', 'stageId is not a stage of the pipeline');
  const live = found.id !== null && found.trashed_at === null;
  if (recordId && !live)
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      `recordId ${recordId} is not a live record of this workspace`,
    );
  const record = live ? serialize(found) : null;
  const epoch = new Date(0);
  const deal: DealRow = {
    workspace_id: ws,
    id: newId('deal'),
    pipeline_id: pipelineId,
    stage_id: stageId,
    title,
    amount,
    currency: typeof body.currency === 'string' ? body.currency : (found.currency ?? 'USD'),
    close_date: null,
    data: data as Record<string, unknown>,
    record_id: recordId,
    created_at: epoch,
    updated_at: epoch,
  };
  const actor = actorOf(key);
  const event = builtEvent(key, requestId, 'deal.created', dealFieldsWith(record, deal));
  const written = await pool.query<{ created_at: string; updated_at: string }>({
    name: 'create_deal',
    text: CREATE_DEAL_SQL,
    values: [
      ...[
        ws,
        deal.id,
        pipelineId,
        stageId,
        title,
        amount,
        deal.currency,
        null,
        JSON.stringify(data),
        recordId,
      ],
      ...[ws, pipelineId, stageId, recordId, ws, recordId],
      ...[ws, deal.id, recordId, recordId],
      ...[ws, event.id, event.type, JSON.stringify(event.payload), '{deal,createdAt}', '{deal,updatedAt}'],
      event.occurredAt,
      ...afterEventsValues(ws, actor, requestId, '[]'),
    ],
  });
  const row = written.rows[0];
  if (!row) throw new HttpError(409, 'CONFLICT', 'the stage or record changed; send the request again');
  send(res, 201, {
    data: serializeDeal({
      ...deal,
      created_at: new Date(row.created_at),
      updated_at: new Date(row.updated_at),
    }),
  });
}

/** updateDeal for a body of `stageId` only: a real move writes deal.updated and deal.stage_changed. */
async function moveDeal(req: IncomingMessage, res: ServerResponse, key: KeyRow, id: string) {
  const requestId = requestIdOf(req);
  const body = await readJson(req);
  const extra = Object.keys(body).filter((k) => k !== 'stageId');
  if (extra.length > 0 || (body.stageId !== undefined && typeof body.stageId !== 'string')) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'the bare server only moves deals: send { stageId }');
  }
  const stageId = body.stageId as string | undefined;
  const ws = key.workspace_id;
  if (!isId('deal', id)) throw new HttpError(404, 'NOT_FOUND', `Deal ${id} not found`);
  // The deal with its record, in one read (columns of both tables: read as arrays).
  const read = await pool.query<unknown[]>({
    text: DEAL_WITH_RECORD_SQL,
    values: [ws, id],
    rowMode: 'array',
  });
  const columns = read.rows[0];
  if (!columns) throw new HttpError(404, 'NOT_FOUND', `Deal ${id} not found`);
  const current = dealOfColumns(columns.slice(0, 12));
  // The deal's record, a trashed one taken for none.
  const record =
    columns[13] === null || columns[22] !== null ? null : serialize(recordOfColumns(columns.slice(12)));
  if (stageId === undefined || stageId === current.stage_id)
    return send(res, 200, { data: serializeDeal(current) });
  const deal: DealRow = { ...current, stage_id: stageId };
  const fields = dealFieldsWith(record, deal);
  const move = { from: current.stage_id, to: stageId };
  // Both events in one statement with the move's history (dealUpdatedEvents in @crm/domain).
  const events = [
    builtEvent(key, requestId, 'deal.updated', {
      ...fields,
      changedFields: ['stageId'],
      previous: { stageId: current.stage_id },
      changes: { stageId: move },
    }),
    builtEvent(key, requestId, 'deal.stage_changed', {
      ...fields,
      fromStageId: current.stage_id,
      toStageId: stageId,
    }),
  ];
  const history = [
    {
      id: newId('history'),
      subject: 'deal',
      subject_id: deal.id,
      field: 'stageId',
      from_value: move.from,
      to_value: move.to,
      at: (events[0] ?? missing('events[0]')).occurredAt,
    },
  ];
  const data = JSON.stringify(current.data);
  const written = await pool.query<{ created_at: string; updated_at: string }>({
    name: 'move_deal',
    text: MOVE_DEAL_SQL,
    values: [
      ...[stageId, deal.title, deal.amount, deal.currency, deal.close_date, deal.record_id, data],
      ...[ws, id, current.stage_id, current.title, current.amount, current.currency, current.close_date],
      ...[current.record_id, data, ws, current.pipeline_id, stageId],
      ...[ws, '{deal,createdAt}', '{deal,updatedAt}'],
      JSON.stringify(
        events.map((e) => ({ id: e.id, type: e.type, payload: e.payload, occurred_at: e.occurredAt })),
      ),
      ...afterEventsValues(ws, actorOf(key), requestId, JSON.stringify(history)),
    ],
  });
  const row = written.rows[0];
  if (!row) throw new HttpError(400, 'VALIDATION_FAILED', `${stageId} is not a stage of the deal's pipeline`);
  send(res, 200, { data: serializeDeal({ ...deal, updated_at: new Date(row.updated_at) }) });
}

/** Who an API key's writes are made by, as events record it. */
const actorOf = (key: KeyRow) => ({ type: 'apiKey', id: key.id, name: key.key_name });

/** An event as buildEvent in @crm/domain makes it: common fields, then its own, then provenance. */
function builtEvent(key: KeyRow, requestId: string, type: string, fields: Record<string, unknown>) {
  const id = newId('event');
  const occurredAt = new Date().toISOString();
  const payload = {
    id,
    event: type,
    workspaceId: key.workspace_id,
    occurredAt,
    ...fields,
    actor: actorOf(key),
    source: 'rest',
    requestId,
  };
  return { id, type, occurredAt, payload };
}

/** The recordId / folderId / record trio and the deal snapshot of every deal event (dealFieldsWith). */
function dealFieldsWith(record: ReturnType<typeof serialize> | null, deal: DealRow) {
  return {
    recordId: record?.id ?? null,
    folderId: record?.folderId ?? null,
    record,
    dealId: deal.id,
    pipelineId: deal.pipeline_id,
    deal: serializeDeal(deal),
  };
}

/** A deal from the 12 columns of DEAL_WITH_RECORD_SQL, in their order. */
function dealOfColumns(c: unknown[]): DealRow {
  return {
    workspace_id: c[0] as string,
    id: c[1] as string,
    pipeline_id: c[2] as string,
    stage_id: c[3] as string,
    title: c[4] as string | null,
    amount: c[5] as string | null,
    currency: c[6] as string,
    close_date: c[7] as string | null,
    data: c[8] as Record<string, unknown>,
    record_id: c[9] as string | null,
    created_at: c[10] as Date,
    updated_at: c[11] as Date,
  };
}

/** A record from the 11 columns of DEAL_WITH_RECORD_SQL after the deal's, in their order. */
function recordOfColumns(c: unknown[]): RecordRow {
  return {
    workspace_id: c[0] as string,
    id: c[1] as string,
    folder_id: c[2] as string,
    title: c[3] as string,
    email: c[4] as string | null,
    phone: c[5] as string | null,
    data: c[6] as Record<string, unknown>,
    owner_id: c[7] as string | null,
    created_at: c[8] as Date,
    updated_at: c[9] as Date,
    trashed_at: c[10] as Date | null,
  };
}

/** The dueAt order's cursor (`dueCursor` in @crm/domain's shared/cursor.ts, which the package does not export): tagged JSON in base64url. */
const encodeDueCursor = (dueAt: string | null, id: string) =>
  Buffer.from(JSON.stringify(['dueAt', dueAt, id])).toString('base64url');

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** findTasks with `status` and `sort=dueAt` (what the benchmark asks): soonest due first, none last. */
async function listTasksByDue(res: ServerResponse, key: KeyRow, url: URL, host: string | undefined) {
  const query = url.searchParams;
  const status = query.get('status');
  if (query.get('sort') !== 'dueAt' || (status !== 'OPEN' && status !== 'DONE')) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'the bare server lists tasks with status and sort=dueAt');
  }
  const pageSize = query.has('pageSize') ? Number(query.get('pageSize')) : 50;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'pageSize must be between 1 and 200');
  }
  const { rows } = await pool.query<TaskRow>(TASKS_BY_DUE_SQL, [key.workspace_id, status, pageSize + 1]);
  const hasMore = rows.length > pageSize;
  const visible = hasMore ? rows.slice(0, pageSize) : rows;
  const last = visible[visible.length - 1];
  const nextCursor = hasMore && last ? encodeDueCursor(iso(last.due_at), last.id) : null;
  send(res, 200, {
    data: visible.map((row) => ({
      id: row.id,
      title: row.title,
      dueAt: iso(row.due_at),
      assigneeId: row.assignee_id,
      recordId: row.record_id,
      status: row.status,
      priority: row.priority,
      type: row.type,
      recurrence: row.recurrence,
      completedAt: iso(row.completed_at),
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    })),
    meta: { page: 1, pageSize, hasMore, nextCursor, nextUrl: nextUrlOf(url, host, nextCursor) },
  });
}

/**
 * With BARE_FLOOR=1 this server is the benchmark's floor: it sends the resource statement
 * alone. The key is looked up by the first request only and kept; no rate limit is counted.
 */
const FLOOR = process.env.BARE_FLOOR === '1';
let floorKey: Promise<KeyRow> | undefined;

/** Authentication, the rate limit, then the scope check, as the service's gate and authed procedures. */
async function gate(req: IncomingMessage, res: ServerResponse, scope: 'read' | 'write'): Promise<KeyRow> {
  if (FLOOR) {
    floorKey ??= authenticate(req);
    return floorKey;
  }
  const key = await authenticate(req);
  await rateLimit(res, key);
  requireScope(key, scope);
  return key;
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://bare');
  const path = url.pathname;
  if (path === '/readyz') {
    await pool.query('select 1');
    return send(res, 200, { status: 'ready' });
  }
  if (path === '/api/v1/records' && req.method === 'GET') {
    return listRecords(res, await gate(req, res, 'read'), url, req.headers.host);
  }
  if (path === '/api/v1/records' && req.method === 'POST') {
    return createRecord(req, res, await gate(req, res, 'write'));
  }
  const record = /^\/api\/v1\/records\/([^/]+)$/.exec(path);
  if (record && req.method === 'GET') {
    return getRecord(
      res,
      await gate(req, res, 'read'),
      decodeURIComponent(record[1] ?? missing('record[1]')),
    );
  }
  if (path === '/api/v1/deals' && req.method === 'POST') {
    return createDeal(req, res, await gate(req, res, 'write'));
  }
  const deal = /^\/api\/v1\/deals\/([^/]+)$/.exec(path);
  if (deal && req.method === 'PATCH') {
    return moveDeal(
      req,
      res,
      await gate(req, res, 'write'),
      decodeURIComponent(deal[1] ?? missing('deal[1]')),
    );
  }
  if (path === '/api/v1/tasks' && req.method === 'GET') {
    return listTasksByDue(res, await gate(req, res, 'read'), url, req.headers.host);
  }
  throw new HttpError(404, 'NOT_FOUND', `No endpoint ${req.method} ${path}`);
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    if (res.headersSent) return res.destroy();
    if (error instanceof HttpError) {
      send(res, error.status, { error: { code: error.code, message: error.message, requestId: '' } });
    } else {
      console.error(error);
      send(res, 500, { error: { code: 'INTERNAL', message: 'Internal error', requestId: '' } });
    }
  });
});
server.keepAliveTimeout = 65_000;
if (!FLOOR) {
  await listenForKeyChanges();
  setInterval(() => void releaseLeases(leases.expired(Date.now())), leases.ttlMs / 4).unref();
}
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');

const shutdown = () => {
  server.close();
  server.closeAllConnections();
  void releaseLeases(leases.endAll())
    .then(() => Promise.allSettled([pool.end(), countersPool.end()]))
    .finally(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
