import { createDatabase } from '@crm/db';
import {
  type Actor,
  createDeal,
  createRecord,
  findRecords,
  findRecordsInput,
  findTasks,
  findTasksInput,
  getRecord,
  loadFolder,
  newId,
  updateDeal,
  verifyApiKey,
} from '@crm/domain';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_SQL, FOLDER_SQL, GET_RECORD_SQL, LIST_RECORDS_SQL, TASKS_BY_DUE_SQL } from './bare-read-sql.ts';
import {
  CREATE_DEAL_READ_SQL,
  CREATE_DEAL_SQL,
  CREATE_RECORD_SQL,
  DEAL_WITH_RECORD_SQL,
  MOVE_DEAL_SQL,
} from './bare-write-sql.ts';

/**
 * The bare server's copies of the statements the domain builds with drizzle (bare-read-sql.ts,
 * bare-write-sql.ts) are the text the domain sends, word for word: each domain action the
 * benchmark loads runs here against a pool that connects to nothing, records every statement
 * and answers it from `rows`, and the statement the bare server copies is compared with its
 * copy. The benchmark's parity check compares them again under load, against a database.
 */

interface Sent {
  name: string | undefined;
  text: string;
}

/** A pg.Pool that never connects: it records each statement and answers with `rows(text)`. */
class StatementRecorder extends pg.Pool {
  sent: Sent[] = [];
  rows: (text: string) => unknown[] = () => [];

  // biome-ignore lint/suspicious/noExplicitAny: pg.Pool's query has many overloads; drizzle calls the one with a config object.
  override query(config: any): any {
    const text: string = typeof config === 'string' ? config : config.text;
    this.sent.push({ name: typeof config === 'string' ? undefined : config.name, text });
    return Promise.resolve({ rows: this.rows(text), rowCount: 0, fields: [], command: 'SELECT' });
  }

  // biome-ignore lint/suspicious/noExplicitAny: a transaction's client needs only query and release.
  override connect(): any {
    return Promise.resolve({ query: (config: unknown) => this.query(config), release: () => {} });
  }
}

const pool = new StatementRecorder();
const db = createDatabase(pool);
const folderId = newId('folder');
const pipelineId = newId('pipeline');
const stageId = newId('stage');
const dealId = newId('deal');
const actor: Actor = {
  workspaceId: newId('workspace'),
  userId: newId('user'),
  userName: 'Bench',
  role: 'OWNER',
  apiKeyId: newId('apiKey'),
  scopes: new Set(),
  folderIds: null,
};

/** The statements `act` sent; what it threw is left alone (the fake rows end some actions early). */
async function sentBy(act: () => Promise<unknown>): Promise<Sent[]> {
  pool.sent = [];
  await act().catch(() => undefined);
  return pool.sent;
}

function named(sent: Sent[], name: string): string {
  const statement = sent.find((s) => s.name === name);
  if (!statement)
    throw new Error(`no statement named ${name} among ${sent.map((s) => s.name ?? '-').join(', ')}`);
  return statement.text;
}

function starting(sent: Sent[], prefix: string): string {
  const statement = sent.find((s) => s.text.startsWith(prefix));
  if (!statement) throw new Error(`no statement starting ${prefix}`);
  return statement.text;
}

beforeEach(() => {
  pool.rows = (text) => {
    // loadFolder's read (as arrays): a folder without fields.
    if (text.includes('from "folders"')) {
      return [[actor.workspaceId, folderId, 'People', 'PEOPLE', [], new Date(0), new Date(0)]];
    }
    // The deal create's read: the pipeline's one stage, no record.
    if (text.includes('stage_ids')) {
      return [{ stage_ids: [stageId], currency: 'USD', id: null }];
    }
    // The deal update's read (as arrays): the deal in another stage, no record.
    if (text.startsWith('select "deals"')) {
      const deal = [
        actor.workspaceId,
        dealId,
        pipelineId,
        newId('stage'),
        'Deal',
        '10.00',
        'USD',
        null,
        {},
        null,
      ];
      return [[...deal, new Date(0), new Date(0), ...Array(11).fill(null)]];
    }
    return [];
  };
});

describe("the bare server's copies of the domain's statements", () => {
  it('reads: a key, a record, a page of records, a folder, a page of tasks by due date', async () => {
    expect(named(await sentBy(() => verifyApiKey(db, 'hash')), 'auth_api_key')).toBe(AUTH_SQL);
    expect(named(await sentBy(() => getRecord(db, actor, { id: newId('record') })), 'get_live_record')).toBe(
      GET_RECORD_SQL,
    );
    const list = await sentBy(() => findRecords(db, actor, findRecordsInput.parse({ pageSize: 50 })));
    expect(starting(list, 'select')).toBe(LIST_RECORDS_SQL);
    expect(starting(await sentBy(() => loadFolder(db, actor, folderId)), 'select')).toBe(FOLDER_SQL);
    const tasks = await sentBy(() =>
      findTasks(db, actor, findTasksInput.parse({ status: 'OPEN', sort: 'dueAt', pageSize: 50 })),
    );
    expect(starting(tasks, 'select')).toBe(TASKS_BY_DUE_SQL);
  });

  it('writes: a record, a deal, a deal moved to another stage', async () => {
    const record = await sentBy(() => createRecord(db, actor, { folderId, title: 'Ada' }));
    expect(named(record, 'create_record')).toBe(CREATE_RECORD_SQL);
    const deal = await sentBy(() => createDeal(db, actor, { pipelineId, title: 'Deal', amount: 10 }));
    expect(named(deal, 'create_deal_read')).toBe(CREATE_DEAL_READ_SQL);
    expect(named(deal, 'create_deal')).toBe(CREATE_DEAL_SQL);
    const move = await sentBy(() => updateDeal(db, actor, { id: dealId, stageId }));
    expect(starting(move, 'select "deals"')).toBe(DEAL_WITH_RECORD_SQL);
    expect(named(move, 'move_deal')).toBe(MOVE_DEAL_SQL);
  });
});
