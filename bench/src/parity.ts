import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { missing } from '@crm/domain';
import type pg from 'pg';
import type { Target } from './scenarios.ts';
import { sleep } from './time.ts';

interface Envelope {
  data: Record<string, unknown> | Record<string, unknown>[];
  meta?: Record<string, unknown>;
}

interface Answer {
  status: number;
  body: Envelope;
  /** The statements the server sent PostgreSQL while answering, from its trace file. */
  statements: Statement[];
  /** Of those, the rate-limit statements (RATE_LIMITS), compared apart. */
  rateLimits: Statement[];
}

/**
 * One traced statement: which pool (by role) and session options, the name it is prepared
 * under (null for an unnamed statement), the SQL, the parameter types.
 */
interface Statement {
  pool: string;
  name: string | null;
  text: string;
  types: string[];
}

export interface TraceLine {
  app?: string;
  options: string | null;
  name: string | null;
  text: string;
  types: string[];
  /** The parameters as sent, Dates as ISO strings (null if JSON could not hold them). */
  values: unknown[] | null;
}

export interface ParityInput {
  apiKey: string;
  folderId: string;
  recordId: string;
  pipelineId: string;
  stageIds: string[];
  /** Two deals seeded alike (same stage, record, title, amount, created_at), one per server. */
  twinDeals: [string, string];
  /** The SQL trace file of each server (see trace-sql.mjs). */
  traces: Record<Target['name'], string>;
}

export interface ParityReport {
  /** Requests compared, each as `METHOD path`. */
  requests: string[];
  /** Statements compared over all requests. */
  statements: number;
  /** Same SQL and parameters sent on a different kind of pool (e.g. synchronous_commit), per statement. */
  poolDifferences: string[];
}

/** `crm` → main, `crm-counters` → counters; the bare server's pools are `crm-bare…`. */
function poolRole(line: TraceLine): string {
  const role = line.app?.endsWith('-counters') ? 'counters' : 'main';
  return line.options ? `${role} (${line.options})` : role;
}

/** Uses of keys are written in batches on a timer (and a key's first use at once): not per request. */
const KEY_USES = 'record_key_uses';
/**
 * Rate-limit statements: whether a request sends one depends on time (a lease of tokens lasts
 * a second at most, its unused tokens go back on a timer), so they are compared over the
 * whole check, by kind (the same text, name and parameter types), not request by request.
 */
const RATE_LIMITS = new Set(['consume_rate_limits', 'release_rate_limits']);

/** What `work` made the server send: the lines its trace file gained meanwhile. */
export async function traceOf<T>(
  file: string,
  work: () => Promise<T>,
): Promise<{ answer: T; lines: TraceLine[] }> {
  const from = (await stat(file)).size;
  const answer = await work();
  // Statements are sent before the response; this only lets a late trace line land.
  await sleep(30);
  const text = (await readFile(file)).subarray(from).toString('utf8');
  const lines = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TraceLine);
  return { answer, lines };
}

/** A statement on records the service sent, with its parameters. */
export interface RecordStatement {
  text: string;
  values: unknown[];
}

/**
 * The statements on records the service sends for each of `paths` (read with `get`), with
 * their parameters, long after the parity check: its SQL trace is switched back on for them
 * (the file written again, then SIGUSR2: trace-sql.mjs) and off again by deleting the file.
 */
export async function recordStatementsOf(
  service: { pid: number; traceFile: string },
  paths: string[],
  get: (path: string) => Promise<unknown>,
): Promise<RecordStatement[][]> {
  await writeFile(service.traceFile, '');
  process.kill(service.pid, 'SIGUSR2');
  await sleep(100);
  const found: RecordStatement[][] = [];
  try {
    for (const path of paths) {
      const { lines } = await traceOf(service.traceFile, () => get(path));
      const onRecords = lines.filter((line) => /\bfrom "?records"?\s/.test(line.text));
      if (onRecords.length === 0 || onRecords.some((line) => !line.values)) {
        throw new Error(
          `GET ${path}: expected traced statements on records with their parameters, got ${lines.length} statements:\n${lines
            .map((line) => `  ${line.text}`)
            .join('\n')}`,
        );
      }
      found.push(
        onRecords.map((line) => ({ text: line.text, values: line.values ?? missing('line.values') })),
      );
    }
  } finally {
    await rm(service.traceFile, { force: true });
  }
  // Tracing stops once the trace-sql.mjs of the service has seen the file gone (within 100 ms).
  await sleep(300);
  return found;
}

async function traced(
  file: string,
  work: () => Promise<Omit<Answer, 'statements' | 'rateLimits'>>,
): Promise<Answer> {
  const { answer, lines } = await traceOf(file, work);
  const statements: Statement[] = [];
  const rateLimits: Statement[] = [];
  for (const line of lines) {
    if (line.name === KEY_USES) continue;
    const statement = { pool: poolRole(line), name: line.name, text: line.text, types: line.types };
    (line.name && RATE_LIMITS.has(line.name) ? rateLimits : statements).push(statement);
  }
  return { ...answer, statements, rateLimits };
}

async function call(
  target: Target,
  input: ParityInput,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  return traced(input.traces[target.name], async () => {
    const response = await fetch(`${target.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${input.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Envelope };
  });
}

/** Without what necessarily differs between two writes: ids and the instants they happened at. */
function withoutIdentity(value: Record<string, unknown>, drop: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !drop.includes(key)));
}

/** An event payload, minus its ids and instants, for comparing two servers' events. */
function eventShape(payload: Record<string, unknown>) {
  const { id, occurredAt, dealId, deal, requestId, ...rest } = payload;
  return {
    ...rest,
    keys: Object.keys(payload),
    deal: withoutIdentity(deal as Record<string, unknown>, ['id', 'createdAt', 'updatedAt']),
  };
}

async function dealEvents(pool: pg.Pool, dealId: string) {
  const { rows } = await pool.query<{ type: string; payload: Record<string, unknown> }>(
    "select type, payload from events where payload->>'dealId' = $1 order by occurred_at, id",
    [dealId],
  );
  return rows.map((row) => ({ type: row.type, payload: eventShape(row.payload) }));
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

const describe = (s: Statement | undefined) =>
  s ? `${s.name ? `(prepared as ${s.name}) ` : ''}${oneLine(s.text)} [${s.types.join(', ')}]` : '(none)';

/**
 * Before measuring, checks that both servers answer every route the scenarios load with the
 * same status and the same JSON (identical bodies for reads, the same fields for writes,
 * the same events for deal writes, ids and instants aside), and that they send PostgreSQL
 * the same statements in the same order, prepared under the same names (or unnamed), with
 * parameters of the same types. A statement sent
 * on a different kind of pool (main or counters, session options) is reported, not fatal.
 */
export async function checkParity(
  targets: [Target, Target],
  pool: pg.Pool,
  input: ParityInput,
): Promise<ParityReport> {
  const [a, b] = targets;
  const problems: string[] = [];
  const report: ParityReport = { requests: [], statements: 0, poolDifferences: [] };
  const poolDifferences = new Map<string, Set<string>>();

  /** Each distinct statement difference once, with the requests it was seen in. */
  const statementDifferences = new Map<string, Set<string>>();
  /** Each server's rate-limit statements over the whole check, by kind. */
  const rateLimitKinds = [new Map<string, Statement>(), new Map<string, Statement>()] as const;
  const noteRateLimits = (ra: Answer, rb: Answer) => {
    [ra, rb].forEach((answer, i) => {
      for (const statement of answer.rateLimits)
        (rateLimitKinds[i] ?? missing('rateLimitKinds[i]')).set(describe(statement), statement);
    });
  };
  const compareStatements = (what: string, ra: Answer, rb: Answer) => {
    noteRateLimits(ra, rb);
    const [sa, sb] = [ra.statements, rb.statements];
    report.requests.push(what);
    const count = Math.max(sa.length, sb.length);
    for (let i = 0; i < count; i++) {
      const x = sa[i];
      const y = sb[i];
      if (!x || !y || x.text !== y.text || x.name !== y.name || !isDeepStrictEqual(x.types, y.types)) {
        const key = `      ${a.name}: ${describe(x)}\n      ${b.name}: ${describe(y)}`;
        statementDifferences.set(key, (statementDifferences.get(key) ?? new Set()).add(`${what} #${i + 1}`));
        // Past a missing statement the two lists are out of step: the rest would only repeat it.
        if (!x || !y) break;
        continue;
      }
      if (x.pool !== y.pool) {
        const key = `"${oneLine(x.text).slice(0, 50)}…" goes to ${a.name}'s ${x.pool} pool but ${b.name}'s ${y.pool} pool`;
        const requests = poolDifferences.get(key) ?? new Set<string>();
        poolDifferences.set(key, requests.add(what));
      }
    }
    report.statements += count;
  };

  // One unmeasured read per server first, so that each has looked the key up and keeps it.
  noteRateLimits(
    await call(a, input, 'GET', '/api/v1/records?pageSize=1'),
    await call(b, input, 'GET', '/api/v1/records?pageSize=1'),
  );

  for (const path of [
    `/api/v1/records/${input.recordId}`,
    '/api/v1/records?pageSize=50',
    '/api/v1/tasks?status=OPEN&sort=dueAt&pageSize=50',
  ]) {
    const ra = await call(a, input, 'GET', path);
    const rb = await call(b, input, 'GET', path);
    if (ra.status !== 200 || rb.status !== 200) {
      problems.push(`GET ${path}: ${a.name} ${ra.status}, ${b.name} ${rb.status}`);
    } else if (!isDeepStrictEqual(withoutOrigin(ra.body), withoutOrigin(rb.body))) {
      problems.push(`GET ${path}: bodies differ`);
    }
    compareStatements(`GET ${path.replace(/\/[a-z]+_[0-9a-z]{26}/, '/:id')}`, ra, rb);
  }

  const compareWrite = async (
    what: string,
    status: number,
    send: (target: Target, index: number) => Promise<Answer>,
    drop: string[],
  ) => {
    const [ca, cb] = [await send(a, 0), await send(b, 1)];
    compareStatements(what, ca, cb);
    if (ca.status !== status || cb.status !== status) {
      problems.push(
        `${what}: ${a.name} ${ca.status} ${JSON.stringify(ca.body)}, ${b.name} ${cb.status} ${JSON.stringify(cb.body)}`,
      );
      return undefined;
    }
    const shape = (envelope: Envelope) => {
      const data = envelope.data as Record<string, unknown>;
      return {
        keys: Object.keys(data).sort(),
        rest: withoutIdentity(data, drop),
        idPrefix: String(data.id).slice(0, 4),
      };
    };
    if (!isDeepStrictEqual(shape(ca.body), shape(cb.body))) {
      problems.push(`${what}: results differ: ${JSON.stringify(ca.body)} vs ${JSON.stringify(cb.body)}`);
    }
    return [ca.body.data as Record<string, unknown>, cb.body.data as Record<string, unknown>] as const;
  };
  const compareEvents = async (what: string, ids: readonly [string, string], expected: string[]) => {
    const [ea, eb] = [await dealEvents(pool, ids[0]), await dealEvents(pool, ids[1])];
    const types = ea.map((e) => e.type);
    if (!isDeepStrictEqual(types, expected))
      problems.push(`${what}: ${a.name} wrote events ${types.join(', ') || '(none)'}`);
    if (!isDeepStrictEqual(ea, eb)) {
      problems.push(`${what}: events differ: ${JSON.stringify(ea)} vs ${JSON.stringify(eb)}`);
    }
  };

  const recordInput = (who: string) => ({
    folderId: input.folderId,
    title: 'Parity Check',
    email: `parity.${who}.${Date.now()}@example.com`,
    phone: '+1 415 555 0100',
    data: { company: 'Parity Labs', lifecycle: 'Lead' },
  });
  await compareWrite(
    'POST /api/v1/records',
    201,
    (t) => call(t, input, 'POST', '/api/v1/records', recordInput(t.name)),
    ['id', 'email', 'createdAt', 'updatedAt'],
  );

  for (const recordId of [undefined, input.recordId]) {
    const what = `POST /api/v1/deals${recordId ? ' with recordId' : ''}`;
    const body = { pipelineId: input.pipelineId, title: 'Parity deal', amount: 1234.5, recordId };
    const created = await compareWrite(what, 201, (t) => call(t, input, 'POST', '/api/v1/deals', body), [
      'id',
      'createdAt',
      'updatedAt',
    ]);
    if (created) await compareEvents(what, [String(created[0].id), String(created[1].id)], ['deal.created']);
  }

  const what = 'PATCH /api/v1/deals/:id {stageId}';
  const moved = await compareWrite(
    what,
    200,
    (t, i) => call(t, input, 'PATCH', `/api/v1/deals/${input.twinDeals[i]}`, { stageId: input.stageIds[1] }),
    ['id', 'updatedAt'],
  );
  if (moved) await compareEvents(what, input.twinDeals, ['deal.updated', 'deal.stage_changed']);

  const [kindsA, kindsB] = rateLimitKinds;
  if (![...kindsA.keys()].some((kind) => kind.includes('consume_rate_limits'))) {
    problems.push(`${a.name} counted no request against the rate limit`);
  }
  for (const [kinds, other, name] of [
    [kindsA, kindsB, a.name],
    [kindsB, kindsA, b.name],
  ] as const) {
    for (const [kind, statement] of kinds) {
      // Leases end on a timer: one server may give tokens back during the check, the other after it.
      if (!other.has(kind)) {
        if (
          statement.name !== 'release_rate_limits' ||
          [...other.values()].some((s) => s.name === statement.name)
        )
          problems.push(`only ${name} sent the rate-limit statement ${kind}`);
      } else if (
        statement.pool !== (other.get(kind) ?? missing('other.get(kind)')).pool &&
        kinds === kindsA
      ) {
        poolDifferences.set(`rate limits: ${kind.slice(0, 50)}…`, new Set(['(whole check)']));
      }
    }
  }
  for (const [key, seen] of statementDifferences) {
    problems.push(`statements differ in ${[...seen].join(', ')}:\n${key}`);
  }
  if (problems.length > 0) throw new Error(`The servers do not answer alike:\n  ${problems.join('\n  ')}`);
  for (const [key, requests] of poolDifferences) {
    report.poolDifferences.push(`${key} (${requests.size} of ${report.requests.length} requests)`);
  }
  return report;
}

/**
 * A list's body with `meta.nextUrl` made relative: the two servers listen on different ports,
 * so the absolute URLs of their next pages differ by their origin alone.
 */
function withoutOrigin(body: unknown): unknown {
  const meta = (body as { meta?: { nextUrl?: unknown } } | null)?.meta;
  if (!meta || typeof meta.nextUrl !== 'string') return body;
  const url = new URL(meta.nextUrl);
  return { ...(body as object), meta: { ...meta, nextUrl: `${url.pathname}${url.search}` } };
}
