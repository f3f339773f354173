import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCall } from '../calls/create-call.ts';
import { createComment } from '../comments/create-comment.ts';
import { createRecord } from '../records/create-record.ts';
import { updateRecord } from '../records/update-record.ts';
import type { Actor } from '../shared/actor.ts';
import { expectDomainError, newWorkspace } from '../testing/fixtures.ts';
import { planRecorder } from '../testing/plans.ts';
import { findTimeline } from './find-timeline.ts';

/**
 * A record's timeline reads each of its sources through an index of that record's rows
 * (docs/api.md, "Record timeline"): EXPLAIN of the exact statement findTimeline sends, over a
 * workspace with 20,000 events, comments and calls and 4,000 automation runs about other
 * records, beside another workspace of as many, shows index scans and no sequential scan, for
 * the first page, a page after a cursor and a numbered page.
 */

let database: TestDatabase;
let pool: pg.Pool;
let db: Database;
let actor: Actor;
let recordId: string;
let plansOf: ReturnType<typeof planRecorder>;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 4 });
  plansOf = planRecorder(pool);
  db = createDatabase(pool);
  const other = await newWorkspace(db, 'Other');
  const mine = await newWorkspace(db, 'Mine');
  actor = mine.actor;
  const record = await createRecord(db, actor, { folderId: mine.peopleFolderId, title: 'Ada' });
  recordId = record.record.id;
  for (let i = 0; i < 30; i++) {
    await updateRecord(db, actor, { id: recordId, title: `Ada ${i}` });
    await createComment(db, actor, { id: recordId, text: `Note ${i}` });
    await createCall(db, actor, { id: recordId });
  }
  for (const ws of [other, mine]) {
    const w = ws.actor.workspaceId;
    await pool.query(
      `insert into events (workspace_id, id, type, payload, occurred_at)
       select $1, 'evt_seed_' || n, 'record.updated',
              jsonb_build_object('recordId', 'rec_seed_' || (n % 2000), 'changedFields', '[]'::jsonb),
              now() - (n || ' seconds')::interval
         from generate_series(1, 20000) n`,
      [w],
    );
    await pool.query(
      `insert into records (workspace_id, id, folder_id, title)
       select $1, 'rec_seed_' || n, $2, 'Seed ' || n from generate_series(0, 1999) n`,
      [w, ws.peopleFolderId],
    );
    await pool.query(
      `insert into comments (workspace_id, id, record_id, text, author, created_at)
       select $1, 'note_seed_' || n, 'rec_seed_' || (n % 2000), 'Seed', 'Seed', now() - (n || ' seconds')::interval
         from generate_series(1, 20000) n`,
      [w],
    );
    await pool.query(
      `insert into call_logs (workspace_id, id, record_id, called_at, created_at)
       select $1, 'call_seed_' || n, 'rec_seed_' || (n % 2000), now(), now() - (n || ' seconds')::interval
         from generate_series(1, 20000) n`,
      [w],
    );
    await pool.query(
      `insert into workflows (workspace_id, id, name, trigger_type, actions, created_by)
       values ($1, 'wf_seed_' || $1, 'Seed', 'INCOMING_WEBHOOK', '[]'::jsonb, $2)`,
      [w, ws.actor.userId],
    );
    await pool.query(
      `insert into workflow_runs (workspace_id, id, workflow_id, trigger, input, record_id, context_record_id, actions, created_at)
       select $1, 'run_seed_' || n, 'wf_seed_' || $1, 'INCOMING_WEBHOOK', '{}'::jsonb,
              'rec_seed_' || (n % 500), 'rec_seed_' || (n % 700), '[]'::jsonb, now() - (n || ' seconds')::interval
         from generate_series(1, 4000) n`,
      [w],
    );
  }
  await pool.query(
    'analyze records; analyze events; analyze workflow_runs; analyze comments; analyze call_logs',
  );
}, 120_000);
afterAll(async () => {
  await closePool(pool);
  await database?.drop();
});

describe('findTimeline', () => {
  it('reads every source through an index of the record, on the first page and after a cursor', async () => {
    const first = await findTimeline(db, actor, { id: recordId, pageSize: 20 });
    expect(first.data).toHaveLength(20);
    for (const input of [
      { id: recordId, pageSize: 20 },
      { id: recordId, pageSize: 20, cursor: first.meta.nextCursor! },
      { id: recordId, pageSize: 20, page: 3 },
    ]) {
      const plans = await plansOf(() => findTimeline(db, actor, input), /from events/);
      expect(plans).toHaveLength(1);
      const { nodes } = plans[0]!;
      const summary = JSON.stringify(nodes);
      expect(
        nodes.some((n) => n.type === 'Seq Scan'),
        summary,
      ).toBe(false);
      const indexesOf = (relation: string) =>
        nodes.filter((n) => n.relation === relation).map((n) => n.index ?? n.type);
      // The events about the record, and the link events naming it as the linked record.
      expect(indexesOf('events'), summary).toEqual(['events_record_idx', 'events_link_to_idx']);
      expect(indexesOf('comments'), summary).toEqual(['comments_record_idx']);
      expect(indexesOf('call_logs'), summary).toEqual(['call_logs_record_idx']);
      expect(new Set(nodes.filter((n) => n.type === 'Bitmap Index Scan').map((n) => n.index))).toEqual(
        new Set(['workflow_runs_record_idx', 'workflow_runs_context_record_idx']),
      );
    }
  });

  it('walks the whole history once by cursor, newest first', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await findTimeline(db, actor, { id: recordId, pageSize: 7, cursor });
      ids.push(...page.data.map((e) => e.id));
      cursor = page.meta.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 100);
    // 30 changes, 30 comments, 30 calls and the creation.
    expect(ids).toHaveLength(91);
    expect(new Set(ids).size).toBe(91);
    const all = await findTimeline(db, actor, { id: recordId, pageSize: 200 });
    expect(all.data.map((e) => e.id)).toEqual(ids);
    expect(all.data.at(-1)).toMatchObject({ id: recordId, kind: 'record.created' });
  });

  it('is NOT_FOUND for a record of another workspace', async () => {
    const stranger = await newWorkspace(db, 'Stranger');
    await expectDomainError(findTimeline(db, stranger.actor, { id: recordId }), 'NOT_FOUND');
  });
});
