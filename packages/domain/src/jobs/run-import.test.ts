import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import { missing } from '../shared/missing.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { cancelJob } from './cancel-job.ts';
import type { ResultLine } from './chunk-results.ts';
import { createExportJob } from './create-export-job.ts';
import { createImportJob } from './create-import-job.ts';
import { getJob } from './get-job.ts';
import { readJobResults } from './read-job-results.ts';
import { receiveJobFile } from './receive-job-file.ts';
import { IMPORT_CHUNK_ROWS } from './run-import.ts';
import { RUNNING_JOBS_PER_WORKSPACE, type RunJobOptions, runJob, sweepJobs } from './run-job.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

/** A file's bytes as a request body delivers them: in pieces of `size` bytes. */
function bodyOf(bytes: Buffer, size = 7_777) {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return Readable.from(pieces);
}

async function newImport(ws: Awaited<ReturnType<typeof newWorkspace>>, body: Record<string, unknown>) {
  return createImportJob(t.db, ws.actor, {
    folderId: ws.peopleFolderId,
    format: 'csv',
    mapping: { Name: 'title', Email: 'email', Company: 'data.company' },
    ...body,
  });
}

/** Runs the job's queue jobs until it has ended (each runs 30 s of chunks at most). */
async function runToEnd(workspaceId: string, id: string, options: RunJobOptions = {}) {
  for (let turn = 0; turn < 50; turn++) {
    await runJob(t.db, { workspaceId, id }, options);
    const [row] = await t.query<{ status: string }>(
      'select status from jobs where workspace_id = $1 and id = $2',
      [workspaceId, id],
    );
    if (row && !['QUEUED', 'RUNNING'].includes(row.status)) return row.status;
  }
  throw new Error('the job did not end');
}

async function resultsOf(ws: Awaited<ReturnType<typeof newWorkspace>>, id: string): Promise<ResultLine[]> {
  const file = await readJobResults(t.db, ws.actor, { id });
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ResultLine);
}

describe('an import job', () => {
  it('creates a record per valid row, refuses the others row by row, and ends SUCCEEDED with one result line per row', async () => {
    const ws = await newWorkspace(t.db);
    const rows = 1_234;
    const lines = ['\ufeffName;Email;Company;Ignored'];
    for (let i = 1; i <= rows; i++) {
      const email = i % 100 === 0 ? 'not an email' : `p${i}@example.com`;
      lines.push(`"Person ${i}";${email};"Firm; ${i % 7}";x`);
    }
    const job = await newImport(ws, {});
    expect(job).toMatchObject({ type: 'IMPORT', status: 'AWAITING_FILE', uploadUrl: `/jobs/${job.id}/file` });
    const queued = await receiveJobFile(t.db, ws.actor, {
      id: job.id,
      file: { mediaType: 'text/csv; charset=utf-8', body: bodyOf(Buffer.from(lines.join('\r\n'))) },
    });
    expect(queued).toMatchObject({ status: 'QUEUED', progress: { total: rows, rowsRead: 0 } });
    expect(await runToEnd(ws.actor.workspaceId, job.id)).toBe('SUCCEEDED');

    const done = await getJob(t.db, ws.actor, { id: job.id });
    expect(done.progress).toEqual({
      rowsRead: rows,
      created: rows - 12,
      updated: 0,
      unchanged: 0,
      refused: 12,
      total: rows,
    });
    const results = await resultsOf(ws, job.id);
    expect(results.map((r) => r.row)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    expect(results[99]).toMatchObject({
      row: 100,
      status: 'refused',
      recordId: null,
      errors: [{ path: 'email' }],
    });
    const records = await t.query<{ id: string; title: string; email: string; company: string }>(
      `select id, title, email, data->>'company' as company from records where workspace_id = $1 order by title`,
      [ws.actor.workspaceId],
    );
    expect(records).toHaveLength(rows - 12);
    expect(records.find((r) => r.title === 'Person 1')).toMatchObject({
      email: 'p1@example.com',
      company: 'Firm; 1',
    });
    const created = new Set(results.filter((r) => r.status === 'created').map((r) => r.recordId));
    expect(new Set(records.map((r) => r.id))).toEqual(created);

    // Provenance names the job; one record.created per record; the job's own event.
    const events = await t.query<{ type: string; actor: { type: string; id: string }; source: string }>(
      `select type, payload->'actor' as actor, payload->>'source' as source from events where workspace_id = $1`,
      [ws.actor.workspaceId],
    );
    const createdEvents = events.filter((e) => e.type === 'record.created');
    expect(createdEvents).toHaveLength(rows - 12);
    expect(
      createdEvents.every((e) => e.actor.type === 'job' && e.actor.id === job.id && e.source === 'job'),
    ).toBe(true);
    expect(events.filter((e) => e.type === 'job.completed')).toHaveLength(1);
  });

  it.each([1, 2])(
    'goes on from its last committed chunk after a failure mid-file, %i chunk(s) in flight: every row applied once',
    async (importChunksInFlight) => {
      const ws = await newWorkspace(t.db);
      const rows = IMPORT_CHUNK_ROWS * 3 + 17;
      const lines = ['Name,Email,Company'];
      for (let i = 1; i <= rows; i++) lines.push(`Row ${i},r${i}@example.com,Co`);
      const job = await newImport(ws, {});
      await receiveJobFile(t.db, ws.actor, {
        id: job.id,
        file: { mediaType: 'text/csv', body: bodyOf(Buffer.from(lines.join('\n'))) },
      });
      // The database fails the second chunk's writes (as an outage would, not as a refused row).
      const fault = `fail_${job.id.slice(4, 14)}`;
      await t.query(`create function ${fault}() returns trigger language plpgsql as $$
      begin if new.title = 'Row ${IMPORT_CHUNK_ROWS + 3}' then raise exception 'disk on fire' using errcode = 'XX000'; end if; return new; end $$`);
      await t.query(
        `create trigger ${fault} before insert on records for each row execute function ${fault}()`,
      );
      await expect(
        runJob(t.db, { workspaceId: ws.actor.workspaceId, id: job.id }, { importChunksInFlight }),
      ).rejects.toThrow();
      const cut = await getJob(t.db, ws.actor, { id: job.id });
      expect(cut).toMatchObject({
        status: 'RUNNING',
        progress: { rowsRead: IMPORT_CHUNK_ROWS, created: IMPORT_CHUNK_ROWS },
      });
      await t.query(`drop trigger ${fault} on records`);
      await t.query(`drop function ${fault}()`);
      // Its runner gone (the lease run out), a sweep queues it again, once, however often it runs.
      await t.query(`update jobs set leased_until = now() - interval '1 second' where id = $1`, [job.id]);
      expect(await sweepJobs(t.db)).toBe(1);
      expect(await sweepJobs(t.db)).toBe(0);
      const queued = await t.query<{ n: number }>(
        'select count(*)::int as n from graphile_worker.jobs where key = $1',
        [`job:${job.id}`],
      );
      expect(queued[0]?.n).toBe(1);

      expect(await runToEnd(ws.actor.workspaceId, job.id, { importChunksInFlight })).toBe('SUCCEEDED');
      const emails = await t.query<{ email: string; n: number }>(
        'select email, count(*)::int as n from records where workspace_id = $1 group by email',
        [ws.actor.workspaceId],
      );
      expect(emails).toHaveLength(rows);
      expect(emails.every((e) => e.n === 1)).toBe(true);
      const results = await resultsOf(ws, job.id);
      expect(results.map((r) => r.row)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
      const createdEvents = await t.query<{ n: number }>(
        "select count(*)::int as n from events where workspace_id = $1 and type = 'record.created'",
        [ws.actor.workspaceId],
      );
      expect(createdEvents[0]?.n).toBe(rows);
    },
  );

  it('upserts by a custom field: the first row of a new value creates, later rows update, a row that changes nothing is unchanged', async () => {
    const ws = await newWorkspace(t.db);
    const folder = await createFolder(t.db, ws.actor, {
      name: 'Accounts',
      fields: [
        { key: 'code', label: 'Code', type: 'TEXT' },
        { key: 'tier', label: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] },
        { key: 'tags', label: 'Tags', type: 'MULTI_SELECT', options: ['a', 'b', 'c'] },
      ],
    });
    const mapping = { code: 'data.code', name: 'title', tier: 'data.tier', tags: 'data.tags' };
    const importOf = async (text: string) => {
      const job = await createImportJob(t.db, ws.actor, {
        folderId: folder.id,
        format: 'ndjson',
        mapping,
        upsertBy: 'data.code',
      });
      await receiveJobFile(t.db, ws.actor, {
        id: job.id,
        file: { mediaType: 'application/x-ndjson', body: bodyOf(Buffer.from(text), 5) },
      });
      expect(await runToEnd(ws.actor.workspaceId, job.id)).toBe('SUCCEEDED');
      return resultsOf(ws, job.id);
    };
    const first = await importOf(
      [
        '{"code":"A1","name":"Alpha","tier":"Gold","tags":"a;b"}',
        '{"code":"A1","name":"Alpha again","tier":"Silver"}',
        '',
        'not json',
        '{"code":"B2","name":"Beta","tags":["c"]}',
      ].join('\n'),
    );
    expect(first.map((r) => [r.row, r.status])).toEqual([
      [1, 'created'],
      [2, 'updated'],
      [3, 'refused'],
      [4, 'created'],
    ]);
    expect(first[2]?.errors[0]?.message).toMatch(/not JSON/);
    const again = await importOf(
      '{"code":"B2","name":"Beta","tags":["c"]}\n{"code":"A1","name":"Alpha 3"}\n',
    );
    expect(again.map((r) => r.status)).toEqual(['unchanged', 'updated']);
    const records = await t.query<{ title: string; data: Record<string, unknown> }>(
      'select title, data from records where workspace_id = $1 and folder_id = $2 order by title',
      [ws.actor.workspaceId, folder.id],
    );
    expect(records).toEqual([
      { title: 'Alpha 3', data: { code: 'A1', tier: 'Silver', tags: ['a', 'b'] } },
      { title: 'Beta', data: { code: 'B2', tags: ['c'] } },
    ]);
  });

  it('refuses a file that is not UTF-8, lacks a mapped column or has a row wider than its header, and keeps nothing', async () => {
    const ws = await newWorkspace(t.db);
    const cases: [Buffer, RegExp][] = [
      [
        Buffer.concat([
          Buffer.from('Name,Email,Company\nA,a@example.com,'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('\n'),
        ]),
        /not UTF-8/,
      ],
      [Buffer.from('Name,Company\nA,B\n'), /no column "Email"/],
      [
        Buffer.from('Name,Email,Company\nA,a@example.com,C\nB,b@example.com,C,extra\n'),
        /Row 2 \(line 3\) has 4 columns/,
      ],
      [Buffer.from(''), /empty/],
    ];
    for (const [bytes, message] of cases) {
      const job = await newImport(ws, {});
      await expect(
        receiveJobFile(t.db, ws.actor, {
          id: job.id,
          file: { mediaType: 'text/csv', body: bodyOf(bytes, 3) },
        }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(message) });
      expect(await getJob(t.db, ws.actor, { id: job.id })).toMatchObject({ status: 'AWAITING_FILE' });
      const parts = await t.query('select 1 from job_files where workspace_id = $1 and job_id = $2', [
        ws.actor.workspaceId,
        job.id,
      ]);
      expect(parts).toHaveLength(0);
    }
    const ndjson = await newImport(ws, {});
    await expect(
      receiveJobFile(t.db, ws.actor, {
        id: ndjson.id,
        file: { mediaType: 'application/x-ndjson', body: bodyOf(Buffer.from('{}')) },
      }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('cancelled, it stops before its next chunk and keeps what it wrote', async () => {
    const ws = await newWorkspace(t.db);
    const lines = ['Name,Email,Company'];
    for (let i = 1; i <= IMPORT_CHUNK_ROWS * 2; i++) lines.push(`C ${i},c${i}@example.com,X`);
    const job = await newImport(ws, {});
    await receiveJobFile(t.db, ws.actor, {
      id: job.id,
      file: { mediaType: 'text/csv', body: bodyOf(Buffer.from(lines.join('\n'))) },
    });
    await t.query("update jobs set status = 'RUNNING' where id = $1", [job.id]);
    const cancelled = await cancelJob(t.db, ws.actor, { id: job.id });
    expect(cancelled.status).toBe('CANCELLED');
    await runJob(t.db, { workspaceId: ws.actor.workspaceId, id: job.id });
    expect(await getJob(t.db, ws.actor, { id: job.id })).toMatchObject({
      status: 'CANCELLED',
      progress: { rowsRead: 0 },
    });
    await expect(cancelJob(t.db, ws.actor, { id: job.id })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('with notify false writes its events and history, and no webhook delivery', async () => {
    const ws = await newWorkspace(t.db);
    await t.query(
      `insert into webhooks (workspace_id, id, url, events, secret, enabled)
       values ($1, 'wh_quiet', 'https://hooks.example.com/x', array['*'], 'secret', true)`,
      [ws.actor.workspaceId],
    );
    const job = await newImport(ws, { notify: false });
    await receiveJobFile(t.db, ws.actor, {
      id: job.id,
      file: { mediaType: 'text/csv', body: bodyOf(Buffer.from('Name,Email,Company\nQ,q@example.com,Z\n')) },
    });
    expect(await runToEnd(ws.actor.workspaceId, job.id)).toBe('SUCCEEDED');
    const events = await t.query<{ type: string }>(
      'select type from events where workspace_id = $1 order by type',
      [ws.actor.workspaceId],
    );
    expect(events.map((e) => e.type)).toEqual(['job.completed', 'record.created']);
    const deliveries = await t.query<{ type: string }>(
      'select e.type from deliveries d join events e on e.id = d.event_id where d.workspace_id = $1',
      [ws.actor.workspaceId],
    );
    // The job's own event is not one of its changes: it is delivered.
    expect(deliveries.map((d) => d.type)).toEqual(['job.completed']);
  });
});

describe('jobs of one workspace', () => {
  it(`run ${RUNNING_JOBS_PER_WORKSPACE} at a time: another waits, queued again, and starts once one has ended`, async () => {
    const ws = await newWorkspace(t.db);
    const jobs = [];
    for (let i = 0; i <= RUNNING_JOBS_PER_WORKSPACE; i++) {
      jobs.push(await createExportJob(t.db, ws.actor, { folderId: ws.peopleFolderId, format: 'csv' }));
    }
    const running = jobs.slice(0, RUNNING_JOBS_PER_WORKSPACE).map((job) => job.id);
    const waiting = (jobs.at(-1) ?? missing('the last job')).id;
    // The first ones running (their lease live), as other workers would hold them.
    await t.query(
      `update jobs set status = 'RUNNING', leased_until = now() + interval '1 minute' where id = any($1)`,
      [running],
    );
    await runJob(t.db, { workspaceId: ws.actor.workspaceId, id: waiting });
    expect((await getJob(t.db, ws.actor, { id: waiting })).status).toBe('QUEUED');
    const later = await t.query<{ seconds: number }>(
      'select extract(epoch from run_at - now())::float as seconds from graphile_worker.jobs where key = $1',
      [`job:${waiting}`],
    );
    expect(later).toHaveLength(1);
    expect(later[0]?.seconds).toBeGreaterThan(1);
    // Another workspace's job is not held back by these.
    const other = await newWorkspace(t.db);
    const free = await createExportJob(t.db, other.actor, { folderId: other.peopleFolderId, format: 'csv' });
    await runJob(t.db, { workspaceId: other.actor.workspaceId, id: free.id });
    expect((await getJob(t.db, other.actor, { id: free.id })).status).toBe('SUCCEEDED');
    // One ends: the waiting job starts.
    await cancelJob(t.db, ws.actor, { id: running[0] ?? missing('a running job') });
    expect(await runToEnd(ws.actor.workspaceId, waiting)).toBe('SUCCEEDED');
  });
});

describe('an import upserting by email', () => {
  it('updates the record an email names, creates the rest, and creates a row without an email', async () => {
    const ws = await newWorkspace(t.db);
    const first = await newImport(ws, { upsertBy: 'email' });
    await receiveJobFile(t.db, ws.actor, {
      id: first.id,
      file: {
        mediaType: 'text/csv',
        body: bodyOf(Buffer.from('Name,Email,Company\nAda,ada@example.com,One\n')),
      },
    });
    expect(await runToEnd(ws.actor.workspaceId, first.id)).toBe('SUCCEEDED');
    const job = await newImport(ws, { upsertBy: 'email' });
    const file =
      'Name,Email,Company\nNo mail,,Two\nAda L.,ADA@example.com,Two\nGrace,grace@example.com,Two\n';
    await receiveJobFile(t.db, ws.actor, {
      id: job.id,
      file: { mediaType: 'text/csv', body: bodyOf(Buffer.from(file)) },
    });
    expect(await runToEnd(ws.actor.workspaceId, job.id)).toBe('SUCCEEDED');
    const results = await resultsOf(ws, job.id);
    expect(results.map((r) => [r.row, r.status])).toEqual([
      [1, 'created'],
      [2, 'updated'],
      [3, 'created'],
    ]);
    const people = await t.query<{ title: string; email: string | null }>(
      'select title, email from records where workspace_id = $1 order by title',
      [ws.actor.workspaceId],
    );
    expect(people).toEqual([
      // Matched case-insensitively; the email is then written as the row gives it, as the API's upsert does.
      { title: 'Ada L.', email: 'ADA@example.com' },
      { title: 'Grace', email: 'grace@example.com' },
      { title: 'No mail', email: null },
    ]);
  });
});
