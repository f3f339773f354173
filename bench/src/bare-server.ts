/**
 * The floor the service is compared with: node:http and a pg.Pool, no framework, no
 * validation library, no ORM. It serves GET /api/v1/records/:id, GET /api/v1/records and
 * POST /api/v1/records with the same JSON envelopes as the service, and sends Postgres the
 * same statements per request, with the same parameters:
 *
 *   1. the API-key lookup (and, at most once a minute, the last-used update),
 *   2. the rate-limit statement of consumeRateLimit,
 *   3. the resource query: the live record; 51 live records newest first; or, in a
 *      transaction, the folder row FOR SHARE and the insert returning the new row.
 *
 * The SQL text is what drizzle sends for the domain's queries, copied verbatim. Only pure
 * helpers come from @crm/domain (id generation and format check, search text, cursor
 * encoding, rate-limit retry maths), so both servers do the same work outside the database.
 *
 * Env: DATABASE_URL, PORT, HOST (default 127.0.0.1), DATABASE_POOL_SIZE (default 10).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FieldDefinition } from '@crm/db/schema';
import { encodeCursor, isId, newId, searchTextOf, secondsUntilSlot } from '@crm/domain';
import pg from 'pg';

const AUTH_SQL =
  'select "api_keys"."id", "api_keys"."workspace_id", "api_keys"."user_id", "api_keys"."scopes", ' +
  '"api_keys"."expires_at", "api_keys"."revoked_at", "api_keys"."last_used_at", "users"."name", ' +
  '"memberships"."role", "workspaces"."rate_limit_per_minute" from "api_keys" ' +
  'inner join "workspaces" on "workspaces"."id" = "api_keys"."workspace_id" ' +
  'inner join "users" on "users"."id" = "api_keys"."user_id" ' +
  'inner join "memberships" on ("memberships"."workspace_id" = "api_keys"."workspace_id" and ' +
  '"memberships"."user_id" = "api_keys"."user_id") where "api_keys"."secret_hash" = $1';

const TOUCH_KEY_SQL =
  'update "api_keys" set "last_used_at" = now() where ("api_keys"."id" = $1 and ' +
  `("api_keys"."last_used_at" is null or "api_keys"."last_used_at" < now() - interval '1 minute'))`;

const RATE_LIMIT_SQL = `
    with prev as (
      select coalesce((select count from rate_limit_buckets where subject = $1 and window_start = $2), 0) * $3::float8 as weighted
    ), bucket as (
      insert into rate_limit_buckets as b (subject, window_start, count)
      select $4, $5, case when prev.weighted + 1 <= $6 then 1 else 0 end from prev
      on conflict (subject, window_start) do update set count = b.count + 1
        where b.count + 1 + (select weighted from prev) <= $7
      returning b.count
    )
    select (select count from bucket) as count,
           (select count from rate_limit_buckets where subject = $8 and window_start = $9) as previous,
           (select count from rate_limit_buckets where subject = $10 and window_start = $11) as stored
  `;

const RECORD_COLUMNS =
  '"workspace_id", "id", "folder_id", "title", "email", "phone", "data", "owner_id", "search_text", ' +
  '"created_at", "updated_at", "trashed_at"';

const GET_RECORD_SQL =
  `select ${RECORD_COLUMNS} from "records" where ("records"."workspace_id" = $1 and ` +
  '"records"."id" = $2 and "records"."trashed_at" is null)';

const LIST_RECORDS_SQL =
  `select ${RECORD_COLUMNS} from "records" where ("records"."workspace_id" = $1 and ` +
  '"records"."trashed_at" is null) order by "records"."created_at" desc, "records"."id" desc limit $2';

const FOLDER_FOR_SHARE_SQL =
  'select "workspace_id", "id", "name", "type", "fields", "created_at", "updated_at" from "folders" ' +
  'where ("folders"."workspace_id" = $1 and "folders"."id" = $2) for share';

const INSERT_RECORD_SQL =
  `insert into "records" (${RECORD_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, default, default, default) ` +
  `returning ${RECORD_COLUMNS}`;

interface RecordRow {
  workspace_id: string;
  id: string;
  folder_id: string;
  title: string;
  email: string | null;
  phone: string | null;
  data: Record<string, unknown>;
  owner_id: string | null;
  search_text: string;
  created_at: Date;
  updated_at: Date;
  trashed_at: Date | null;
}

interface KeyRow {
  id: string;
  workspace_id: string;
  user_id: string;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  name: string;
  role: string;
  rate_limit_per_minute: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  application_name: 'crm-bare',
});
pool.on('error', () => {});

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

/** (a) The key lookup of authenticateApiKey, and its at-most-once-a-minute last-used update. */
async function authenticate(req: IncomingMessage): Promise<KeyRow> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) throw new HttpError(401, 'UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>');
  const hash = createHash('sha256').update(match[1]!, 'utf8').digest('hex');
  const { rows } = await pool.query<KeyRow>(AUTH_SQL, [hash]);
  const key = rows[0];
  if (!key) throw new HttpError(401, 'UNAUTHORIZED', 'Invalid API key');
  if (key.revoked_at) throw new HttpError(401, 'UNAUTHORIZED', 'This API key has been revoked');
  if (key.expires_at && key.expires_at.getTime() <= Date.now())
    throw new HttpError(401, 'UNAUTHORIZED', 'This API key has expired');
  if (!key.last_used_at || Date.now() - key.last_used_at.getTime() >= 60_000) {
    await pool.query(TOUCH_KEY_SQL, [key.id]);
  }
  return key;
}

/** Checked after the rate limit, as the service's authed procedure does. */
function requireScope(key: KeyRow, scope: 'read' | 'write') {
  if (!key.scopes.includes(scope))
    throw new HttpError(403, 'FORBIDDEN', `This API key lacks the ${scope} scope`);
}

/** (b) consumeRateLimit's statement with its parameters, and the RateLimit-* headers it yields. */
async function rateLimit(res: ServerResponse, key: KeyRow): Promise<void> {
  const subject = `ws:${key.workspace_id}`;
  const limit = key.rate_limit_per_minute;
  const now = Date.now();
  const windowStart = now - (now % 60_000);
  const elapsed = now - windowStart;
  const weight = 1 - elapsed / 60_000;
  const current = new Date(windowStart);
  const previous = new Date(windowStart - 60_000);
  const { rows } = await pool.query<{ count: number | null; previous: number | null; stored: number | null }>(
    RATE_LIMIT_SQL,
    [subject, previous, weight, subject, current, limit, limit, subject, previous, subject, current],
  );
  const row = rows[0]!;
  const prevCount = row.previous ?? 0;
  const allowed = row.count !== null && row.count > 0;
  const curCount = allowed ? row.count! : (row.stored ?? 0);
  const remaining = Math.max(0, Math.floor(limit - (prevCount * weight + curCount)));
  const wait = secondsUntilSlot(prevCount, curCount, limit, elapsed / 1000);
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(remaining));
  res.setHeader(
    'RateLimit-Reset',
    String(remaining > 0 ? Math.max(1, Math.ceil((60_000 - elapsed) / 1000)) : wait),
  );
  if (!allowed) {
    res.setHeader('Retry-After', String(wait));
    throw new HttpError(429, 'RATE_LIMITED', `Rate limit of ${limit} requests a minute reached`);
  }
}

async function getRecord(res: ServerResponse, key: KeyRow, id: string) {
  if (!isId('record', id)) throw new HttpError(404, 'NOT_FOUND', `Record ${id} not found`);
  const { rows } = await pool.query<RecordRow>(GET_RECORD_SQL, [key.workspace_id, id]);
  const row = rows[0];
  if (!row) throw new HttpError(404, 'NOT_FOUND', `Record ${id} not found`);
  send(res, 200, { data: serialize(row) });
}

async function listRecords(res: ServerResponse, key: KeyRow, query: URLSearchParams) {
  const pageSize = query.has('pageSize') ? Number(query.get('pageSize')) : 50;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'pageSize must be between 1 and 200');
  }
  const { rows } = await pool.query<RecordRow>(LIST_RECORDS_SQL, [key.workspace_id, pageSize + 1]);
  const hasMore = rows.length > pageSize;
  const visible = hasMore ? rows.slice(0, pageSize) : rows;
  const last = visible[visible.length - 1];
  send(res, 200, {
    data: visible.map(serialize),
    meta: {
      page: 1,
      pageSize,
      hasMore,
      nextCursor:
        hasMore && last ? encodeCursor({ createdAt: last.created_at.toISOString(), id: last.id }) : null,
    },
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

async function createRecord(req: IncomingMessage, res: ServerResponse, key: KeyRow) {
  const body = await readJson(req);
  const title = typeof body.title === 'string' ? body.title.trim() : '';
  if (typeof body.folderId !== 'string' || title === '') {
    throw new HttpError(400, 'VALIDATION_FAILED', 'folderId and title are required');
  }
  const email = optionalText(body.email);
  const phone = optionalText(body.phone);
  const given = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : {};
  const data = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== null));
  const client = await pool.connect();
  let row: RecordRow | undefined;
  try {
    await client.query('begin');
    const folders = await client.query<{ id: string; fields: FieldDefinition[] }>(FOLDER_FOR_SHARE_SQL, [
      key.workspace_id,
      body.folderId,
    ]);
    const folder = folders.rows[0];
    if (!folder) throw new HttpError(400, 'VALIDATION_FAILED', `folder ${body.folderId} does not exist`);
    const inserted = await client.query<RecordRow>(INSERT_RECORD_SQL, [
      key.workspace_id,
      newId('record'),
      folder.id,
      title,
      email,
      phone,
      JSON.stringify(data),
      null,
      searchTextOf({ title, email, phone, data }, folder.fields),
    ]);
    row = inserted.rows[0]!;
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  send(res, 201, { data: serialize(row) });
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://bare');
  const path = url.pathname;
  if (path === '/readyz') {
    await pool.query('select 1');
    return send(res, 200, { status: 'ready' });
  }
  if (path === '/api/v1/records' && req.method === 'GET') {
    const key = await authenticate(req);
    await rateLimit(res, key);
    requireScope(key, 'read');
    return listRecords(res, key, url.searchParams);
  }
  if (path === '/api/v1/records' && req.method === 'POST') {
    const key = await authenticate(req);
    await rateLimit(res, key);
    requireScope(key, 'write');
    return createRecord(req, res, key);
  }
  const one = /^\/api\/v1\/records\/([^/]+)$/.exec(path);
  if (one && req.method === 'GET') {
    const key = await authenticate(req);
    await rateLimit(res, key);
    requireScope(key, 'read');
    return getRecord(res, key, decodeURIComponent(one[1]!));
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
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');

const shutdown = () => {
  server.close();
  server.closeAllConnections();
  pool.end().finally(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
