import { runJob } from '@crm/domain';
import { parseAllowList } from '@crm/webhooks';
import { executeRun } from '@crm/workflows';
import { expect } from 'vitest';
import type { ApiResponse, TestApp, TestWorkspace } from './test-app.ts';

/**
 * Requests that exercise the documented operations, per resource: a walk through every
 * operation's success, and the unknown ids each operation answers 404 for. openapi.test.ts
 * runs them and checks every response against the document; a new endpoint is covered by
 * adding its requests here.
 */

export interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Sends a request with the workspace's key, asserts the status and that the response conforms. */
export type Send = (method: string, template: string, status: number, call?: Call) => Promise<ApiResponse>;
/** `app` gives walks what the API cannot: here, running a queued workflow run to its end. */
export type Walk = (send: Send, ws: TestWorkspace, app: TestApp) => Promise<void>;

/** Well-formed ids that exist nowhere. */
const MISSING = {
  folder: 'fld_01jq3v6f6ve7s9t8m1k2c3d4e5',
  record: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5',
  pipeline: 'pl_01jq3v6f6ve7s9t8m1k2c3d4e5',
  stage: 'st_01jq3v6f6ve7s9t8m1k2c3d4e5',
  deal: 'deal_01jq3v6f6ve7s9t8m1k2c3d4e5',
  task: 'task_01jq3v6f6ve7s9t8m1k2c3d4e5',
};

/** A configuration document with nothing in it (docs/operations.md, "Configuration as code"). */
const EMPTY_CONFIG = { version: 1, folders: [], pipelines: [], workflows: [], webhooks: [], views: [] };

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export const successWalks: Record<string, Walk> = {
  async 'folders and records'(send) {
    await send('GET', '/folders', 200, { query: { pageSize: '10' } });
    const id = (await send('POST', '/folders', 201, { body: { name: `Leads ${unique()}` } })).body.data.id;
    await send('GET', '/folders/{id}', 200, { params: { id } });
    await send('PATCH', '/folders/{id}', 200, { params: { id }, body: { name: `Renamed ${unique()}` } });
    const field = { key: 'stage', label: 'Stage', type: 'SELECT', options: ['new', 'won'] };
    await send('POST', '/folders/{id}/fields', 201, { params: { id }, body: field });
    const key = { id, key: 'stage' };
    await send('PATCH', '/folders/{id}/fields/{key}', 200, { params: key, body: { label: 'Sales stage' } });

    const email = `${unique()}@example.com`;
    const body = { folderId: id, title: 'Grace Hopper', email, data: { stage: 'new' } };
    const rec = (await send('POST', '/records', 201, { body })).body.data.id;
    const upsert = { query: { upsert: 'email' }, body: { folderId: id, title: 'Grace B. Hopper', email } };
    expect((await send('POST', '/records', 200, upsert)).body.data.id).toBe(rec);
    const list = await send('GET', '/records', 200, { query: { folderId: id, search: 'hopper' } });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([rec]);
    // Filters, sorts and counts (docs/api.md, "Filters, sorts and counts").
    const filtered = await send('GET', '/records', 200, {
      query: {
        folderId: id,
        'filter[data.stage]': 'new',
        'filter[title][contains]': 'hop',
        sort: '-updatedAt',
        count: 'true',
      },
    });
    expect(filtered.body.meta.total).toBe(1);
    const queried = await send('POST', '/records/query', 200, {
      body: {
        folderId: id,
        filter: {
          or: [{ field: 'data.stage', value: 'won' }, { not: { field: 'email', op: 'empty', value: true } }],
        },
        sort: 'data.stage',
        count: true,
      },
    });
    expect(queried.body.data.map((r: { id: string }) => r.id)).toEqual([rec]);
    await send('GET', '/records/{id}', 200, { params: { id: rec } });
    await send('PATCH', '/records/{id}', 200, { params: { id: rec }, body: { data: { stage: 'won' } } });
    await send('DELETE', '/folders/{id}/fields/{key}', 200, { params: key });
    const trashed = await send('DELETE', '/records/{id}', 200, { params: { id: rec } });
    expect(trashed.body.data.trashedAt).toEqual(expect.any(String));
    await send('POST', '/records/{id}/restore', 200, { params: { id: rec } });

    // Batches answer 200 with an entry per item, successes and failures alike.
    const items = [{ folderId: id, title: 'Batch one', email }, { folderId: id }];
    const batch = await send('POST', '/records/batch', 200, { body: { items } });
    expect(batch.body.data.map((d: { status: number }) => d.status)).toEqual([201, 400]);
    const upserted = await send('POST', '/records/batch', 200, {
      query: { upsert: 'email' },
      body: { items },
    });
    expect(upserted.body.data[0]).toMatchObject({ status: 200, data: { id: rec } });
    const changes = [
      { id: rec, title: 'Grace' },
      { id: MISSING.record, title: 'X' },
    ];
    const patched = await send('PATCH', '/records/batch', 200, { body: { items: changes } });
    expect(patched.body.meta).toEqual({ succeeded: 1, failed: 1 });
    const ids = [batch.body.data[0].data.id, MISSING.record];
    const trashedMany = await send('POST', '/records/batch/trash', 200, { body: { ids } });
    expect(trashedMany.body.data.map((d: { status: number }) => d.status)).toEqual([200, 404]);
  },

  async 'pipelines, stages and deals'(send) {
    await send('GET', '/pipelines', 200);
    const created = await send('POST', '/pipelines', 201, {
      body: { name: `Sales ${unique()}`, stages: ['A', 'B'] },
    });
    const id = created.body.data.id;
    await send('GET', '/pipelines/{id}', 200, { params: { id } });
    await send('PATCH', '/pipelines/{id}', 200, { params: { id }, body: { name: `Renamed ${unique()}` } });
    const added = await send('POST', '/pipelines/{id}/stages', 201, { params: { id }, body: { name: 'C' } });
    const stages: string[] = added.body.data.stages.map((s: { id: string }) => s.id);
    const extra = { id, stageId: stages[2]! };
    await send('PATCH', '/pipelines/{id}/stages/{stageId}', 200, { params: extra, body: { name: 'C2' } });
    const reorder = { params: { id }, body: { stageIds: [...stages].reverse() } };
    await send('POST', '/pipelines/{id}/stages/reorder', 200, reorder);
    await send('DELETE', '/pipelines/{id}/stages/{stageId}', 200, { params: extra });

    const deal = { pipelineId: id, title: 'Big one', amount: 1250.5, closeDate: '2026-12-31' };
    const dealId = (await send('POST', '/deals', 201, { body: deal })).body.data.id;
    const summary = await send('GET', '/pipelines/{id}/summary', 200, { params: { id } });
    expect(summary.body.data.totals).toEqual([{ currency: 'USD', count: 1, amount: 1250.5 }]);
    await send('GET', '/deals', 200, { query: { pipelineId: id } });
    const dealQuery = { pipelineId: id, 'filter[amount][gte]': '1000', sort: '-amount', count: 'true' };
    expect((await send('GET', '/deals', 200, { query: dealQuery })).body.meta.total).toBe(1);
    await send('GET', '/deals/{id}', 200, { params: { id: dealId } });
    await send('PATCH', '/deals/{id}', 200, { params: { id: dealId }, body: { stageId: stages[0] } });
    const deleted = await send('DELETE', '/deals/{id}', 200, { params: { id: dealId } });
    expect(deleted.body.data).toEqual({ id: dealId, deleted: true });

    const deals = [deal, { pipelineId: id, amount: -1 }];
    const many = await send('POST', '/deals/batch', 200, { body: { items: deals } });
    expect(many.body.data.map((d: { status: number }) => d.status)).toEqual([201, 400]);
    const batchDeal = many.body.data[0].data.id;
    const moves = [
      { id: batchDeal, stageId: stages[1] },
      { id: MISSING.deal, title: 'X' },
    ];
    await send('PATCH', '/deals/batch', 200, { body: { items: moves } });
    const gone = await send('POST', '/deals/batch/delete', 200, { body: { ids: [batchDeal, MISSING.deal] } });
    expect(gone.body.data[0]).toEqual({ index: 0, status: 200, data: { id: batchDeal, deleted: true } });
  },

  async tasks(send, ws) {
    const recordId = (await send('POST', '/records', 201, { body: { folderId: ws.folderId, title: 'Ada' } }))
      .body.data.id;
    const body = { title: 'Call back', dueAt: '2026-12-01T09:30:00Z', recordId, recurrence: 'WEEKLY' };
    const id = (await send('POST', '/tasks', 201, { body })).body.data.id;
    await send('GET', '/tasks', 200, { query: { recordId, status: 'OPEN', sort: 'dueAt' } });
    const taskQuery = { 'filter[dueAt][lt]': '2027-01-01T00:00:00Z', sort: '-dueAt', count: 'true' };
    expect((await send('GET', '/tasks', 200, { query: taskQuery })).body.meta.total).toBe(1);
    await send('GET', '/tasks/{id}', 200, { params: { id } });
    await send('PATCH', '/tasks/{id}', 200, { params: { id }, body: { status: 'DONE' } });
    await send('DELETE', '/tasks/{id}', 200, { params: { id } });

    const many = await send('POST', '/tasks/batch', 200, { body: { items: [body, { title: '' }] } });
    expect(many.body.meta).toEqual({ succeeded: 1, failed: 1 });
    const batchTask = many.body.data[0].data.id;
    const changes = [
      { id: batchTask, status: 'DONE' },
      { id: MISSING.task, title: 'X' },
    ];
    await send('PATCH', '/tasks/batch', 200, { body: { items: changes } });
    await send('POST', '/tasks/batch/delete', 200, { body: { ids: [batchTask, MISSING.task] } });
  },

  async 'comments and calls'(send, ws) {
    const body = { folderId: ws.folderId, title: 'Alan Turing', phone: '+44 20 7946 0000' };
    const id = (await send('POST', '/records', 201, { body })).body.data.id;
    const comment = await send('POST', '/records/{id}/comments', 201, {
      params: { id },
      body: { text: 'Met at the fair' },
    });
    expect(comment.body.data.text).toBe('Met at the fair');
    await send('GET', '/records/{id}/comments', 200, { params: { id } });
    const call = await send('POST', '/records/{id}/calls', 201, { params: { id }, body: { duration: 90 } });
    expect(call.body.data).toMatchObject({ direction: 'OUTBOUND', outcome: 'CONNECTED', phone: body.phone });
    await send('GET', '/records/{id}/calls', 200, { params: { id }, query: { pageSize: '5' } });
    const commentId = comment.body.data.id;
    const callId = call.body.data.id;
    await send('GET', '/records/{id}/comments/{commentId}', 200, { params: { id, commentId } });
    await send('GET', '/records/{id}/calls/{callId}', 200, { params: { id, callId } });
    // Another record's comment or call is not found under this one.
    const other = (await send('POST', '/records', 201, { body: { ...body, title: 'Other' } })).body.data.id;
    await send('GET', '/records/{id}/comments/{commentId}', 404, { params: { id: other, commentId } });
    await send('GET', '/records/{id}/calls/{callId}', 404, { params: { id: other, callId } });
    // The record's timeline holds an entry of each kind (docs/api.md, "Record timeline").
    await send('PATCH', '/records/{id}', 200, { params: { id }, body: { email: 'alan@example.com' } });
    const task = await send('POST', '/tasks', 201, { body: { title: 'Follow up', recordId: id } });
    await send('PATCH', '/tasks/{id}', 200, { params: { id: task.body.data.id }, body: { status: 'DONE' } });
    const pipeline = (await send('GET', '/pipelines', 200)).body.data[0];
    const deal = await send('POST', '/deals', 201, { body: { pipelineId: pipeline.id, recordId: id } });
    await send('PATCH', '/deals/{id}', 200, {
      params: { id: deal.body.data.id },
      body: { stageId: pipeline.stages[1].id },
    });
    await send('DELETE', '/records/{id}', 200, { params: { id } });
    await send('POST', '/records/{id}/restore', 200, { params: { id } });
    const timeline = await send('GET', '/records/{id}/timeline', 200, { params: { id } });
    expect(timeline.body.data.map((e: { kind: string }) => e.kind)).toEqual([
      'record.restored',
      'record.trashed',
      'deal.stage_changed',
      'task.completed',
      'task.created',
      'record.updated',
      'call.logged',
      'comment.added',
      'record.created',
    ]);
    await send('GET', '/records/{id}/timeline', 200, { params: { id }, query: { pageSize: '2' } });
  },

  async 'history and the audit log'(send, ws) {
    // A record's history, newest first, and a revert of its latest change (docs/api.md, "History and provenance").
    const rec = (await send('POST', '/records', 201, { body: { folderId: ws.folderId, title: 'First' } }))
      .body.data.id;
    await send('PATCH', '/records/{id}', 200, { params: { id: rec }, body: { title: 'Second' } });
    await send('PATCH', '/records/{id}', 200, { params: { id: rec }, body: { title: 'Third' } });
    const history = await send('GET', '/records/{id}/history', 200, {
      params: { id: rec },
      query: { field: 'title', pageSize: '10' },
    });
    const [latest, older] = history.body.data;
    expect([latest.to, older.to]).toEqual(['Third', 'Second']);
    await send('POST', '/records/{id}/history/{entryId}/revert', 409, {
      params: { id: rec, entryId: older.id },
    });
    const reverted = await send('POST', '/records/{id}/history/{entryId}/revert', 200, {
      params: { id: rec, entryId: latest.id },
    });
    expect(reverted.body.data.title).toBe('Second');
    await send('POST', '/records/{id}/history/{entryId}/revert', 200, {
      params: { id: rec, entryId: older.id },
      query: { force: 'true' },
    });
    // A deal's stage move and a task's completion, and their reverts.
    const pipeline = (await send('GET', '/pipelines', 200)).body.data[0];
    const deal = (await send('POST', '/deals', 201, { body: { pipelineId: pipeline.id, title: 'History' } }))
      .body.data;
    await send('PATCH', '/deals/{id}', 200, {
      params: { id: deal.id },
      body: { stageId: pipeline.stages[2].id },
    });
    const moves = await send('GET', '/deals/{id}/history', 200, { params: { id: deal.id } });
    expect(moves.body.data[0]).toMatchObject({
      field: 'stageId',
      from: deal.stageId,
      to: pipeline.stages[2].id,
    });
    await send('POST', '/deals/{id}/history/{entryId}/revert', 200, {
      params: { id: deal.id, entryId: moves.body.data[0].id },
    });
    const task = (await send('POST', '/tasks', 201, { body: { title: 'History' } })).body.data;
    await send('PATCH', '/tasks/{id}', 200, { params: { id: task.id }, body: { status: 'DONE' } });
    const done = await send('GET', '/tasks/{id}/history', 200, { params: { id: task.id } });
    expect(done.body.data[0]).toMatchObject({ field: 'status', from: 'OPEN', to: 'DONE', source: 'rest' });
    await send('POST', '/tasks/{id}/history/{entryId}/revert', 200, {
      params: { id: task.id, entryId: done.body.data[0].id },
    });
    // An export, in the audit log with what it exported.
    await send('GET', '/records/export', 200, { query: { folderId: ws.folderId, pageSize: '200' } });
    const log = await send('GET', '/audit-log', 200, {
      query: { action: 'records.exported', pageSize: '5' },
    });
    expect(log.body.data[0]).toMatchObject({
      action: 'records.exported',
      actor: { type: 'apiKey' },
      source: 'rest',
      details: { folderId: ws.folderId },
    });
  },

  async workspace(send, ws) {
    const me = await send('GET', '/me', 200);
    expect(me.body.data).toMatchObject({ workspace: { id: ws.workspaceId }, user: { id: ws.userId } });
    const members = await send('GET', '/members', 200);
    expect(members.body.data.map((m: { id: string }) => m.id)).toEqual([ws.userId]);
  },
};

export const notFoundWalks: Record<string, Walk> = {
  async 'folders and records'(send, ws) {
    const folder = { id: MISSING.folder };
    await send('GET', '/folders/{id}', 404, { params: folder });
    await send('PATCH', '/folders/{id}', 404, { params: folder, body: { name: 'X' } });
    const field = { key: 'x', label: 'X', type: 'TEXT' };
    await send('POST', '/folders/{id}/fields', 404, { params: folder, body: field });
    const key = { id: ws.folderId, key: 'nope' };
    await send('PATCH', '/folders/{id}/fields/{key}', 404, { params: key, body: { label: 'X' } });
    await send('DELETE', '/folders/{id}/fields/{key}', 404, { params: key });
    await send('GET', '/records', 404, { query: { folderId: MISSING.folder } });
    await send('POST', '/records/query', 404, { body: { folderId: MISSING.folder } });
    const record = { id: MISSING.record };
    await send('GET', '/records/{id}', 404, { params: record });
    await send('PATCH', '/records/{id}', 404, { params: record, body: { title: 'X' } });
    await send('DELETE', '/records/{id}', 404, { params: record });
    await send('POST', '/records/{id}/restore', 404, { params: record });
    // A record in Trash is not found either, except by restore.
    const rec = (await send('POST', '/records', 201, { body: { folderId: ws.folderId, title: 'Gone' } })).body
      .data;
    await send('DELETE', '/records/{id}', 200, { params: { id: rec.id } });
    await send('GET', '/records/{id}', 404, { params: { id: rec.id } });
    await send('DELETE', '/records/{id}', 404, { params: { id: rec.id } });
  },

  async 'pipelines, stages and deals'(send) {
    const pipeline = { id: MISSING.pipeline };
    await send('GET', '/pipelines/{id}', 404, { params: pipeline });
    await send('GET', '/pipelines/{id}/summary', 404, { params: pipeline });
    await send('PATCH', '/pipelines/{id}', 404, { params: pipeline, body: { name: 'X' } });
    await send('POST', '/pipelines/{id}/stages', 404, { params: pipeline, body: { name: 'X' } });
    const reorder = { params: pipeline, body: { stageIds: [MISSING.stage] } };
    await send('POST', '/pipelines/{id}/stages/reorder', 404, reorder);
    const real = (await send('GET', '/pipelines', 200)).body.data[0].id;
    const stage = { id: real, stageId: MISSING.stage };
    await send('PATCH', '/pipelines/{id}/stages/{stageId}', 404, { params: stage, body: { name: 'X' } });
    await send('DELETE', '/pipelines/{id}/stages/{stageId}', 404, { params: stage });
    await send('GET', '/deals', 404, { query: { pipelineId: MISSING.pipeline } });
    const deal = { id: MISSING.deal };
    await send('GET', '/deals/{id}', 404, { params: deal });
    await send('PATCH', '/deals/{id}', 404, { params: deal, body: { title: 'X' } });
    await send('DELETE', '/deals/{id}', 404, { params: deal });
  },

  async 'comments and calls'(send) {
    const record = { id: MISSING.record };
    await send('GET', '/records/{id}/comments', 404, { params: record });
    await send('POST', '/records/{id}/comments', 404, { params: record, body: { text: 'X' } });
    await send('GET', '/records/{id}/calls', 404, { params: record });
    await send('POST', '/records/{id}/calls', 404, { params: record, body: {} });
    await send('GET', '/records/{id}/comments/{commentId}', 404, {
      params: { ...record, commentId: 'note_x' },
    });
    await send('GET', '/records/{id}/calls/{callId}', 404, { params: { ...record, callId: 'call_x' } });
    await send('GET', '/records/{id}/timeline', 404, { params: record });
    await send('GET', '/records/{id}/history', 404, { params: record });
    await send('GET', '/records/export', 404, { query: { folderId: MISSING.folder } });
    const entry = { ...record, entryId: 'hst_01jq3v6f6ve7s9t8m1k2c3d4e5' };
    await send('POST', '/records/{id}/history/{entryId}/revert', 404, { params: entry });
    await send('GET', '/deals/{id}/history', 404, { params: { id: MISSING.deal } });
    await send('POST', '/deals/{id}/history/{entryId}/revert', 404, {
      params: { ...entry, id: MISSING.deal },
    });
    await send('GET', '/tasks/{id}/history', 404, { params: { id: MISSING.task } });
    await send('POST', '/tasks/{id}/history/{entryId}/revert', 404, {
      params: { ...entry, id: MISSING.task },
    });
  },

  async tasks(send) {
    await send('GET', '/tasks', 404, { query: { recordId: MISSING.record } });
    const task = { id: MISSING.task };
    await send('GET', '/tasks/{id}', 404, { params: task });
    await send('PATCH', '/tasks/{id}', 404, { params: task, body: { title: 'X' } });
    await send('DELETE', '/tasks/{id}', 404, { params: task });
  },
};

/** Requests refused with 400, and the field `error.details` must name. */
export const invalidInputs = (ws: TestWorkspace): [string, string, Call, string][] => [
  ['POST', '/config/plan', { body: { document: { version: 1 } } }, 'document.folders'],
  [
    'POST',
    '/config/apply',
    {
      body: {
        document: {
          ...EMPTY_CONFIG,
          folders: [{ name: 'X', fields: [{ key: 'a', label: 'A', type: 'SELECT' }] }],
        },
      },
    },
    'document.folders.0.fields.0.options',
  ],
  ['POST', '/sandboxes', { body: { name: 'X', copy: ['workflows'] } }, 'copy'],
  ['GET', '/records', { query: { pageSize: '500' } }, 'pageSize'],
  ['GET', '/deals', {}, 'pipelineId'],
  ['GET', '/records', { query: { 'filter[data.lifecycle]': 'Unknown' } }, 'filter[data.lifecycle]'],
  ['GET', '/records', { query: { 'filter[createdAt][gte]': 'yesterday' } }, 'filter[createdAt][gte]'],
  [
    'POST',
    '/records/query',
    { body: { filter: { and: [{ field: 'title', op: 'gt', value: 'A' }] } } },
    'filter.and.0',
  ],
  ['GET', '/tasks', { query: { sort: 'priority' } }, 'sort'],
  ['POST', '/folders', { body: {} }, 'name'],
  ['POST', '/records', { body: { folderId: ws.folderId, title: 'X', email: 'not-an-email' } }, 'email'],
  ['POST', '/records', { body: { folderId: ws.folderId, title: 'X', upsert: 'email' } }, 'upsert'],
  ['POST', '/records', { body: { folderId: ws.folderId, title: 'X', data: { nope: 1 } } }, 'data.nope'],
  [
    'POST',
    '/folders/{id}/fields',
    { params: { id: ws.folderId }, body: { key: '1x', label: 'X', type: 'TEXT' } },
    'key',
  ],
  ['POST', '/tasks', { body: { title: 'X', dueAt: 'tomorrow' } }, 'dueAt'],
  [
    'POST',
    '/records/batch',
    { body: { items: Array.from({ length: 101 }, () => ({ folderId: ws.folderId, title: 'X' })) } },
    'items',
  ],
  ['PATCH', '/deals/batch', { body: { items: [] } }, 'items'],
  ['POST', '/tasks/batch/delete', { body: {} }, 'ids'],
  ['POST', '/deals', { body: { pipelineId: 'pl_x', amount: 1.234 } }, 'amount'],
  [
    'POST',
    '/folders/{id}/fields',
    { params: { id: ws.folderId }, body: { key: 'rel', label: 'Rel', type: 'RELATION' } },
    'relation',
  ],
  [
    'POST',
    '/folders/{id}/fields',
    {
      params: { id: ws.folderId },
      body: {
        key: 'rel',
        label: 'Rel',
        type: 'RELATION',
        relation: { folderId: 'fld_x', cardinality: 'ONE' },
      },
    },
    'relation.folderId',
  ],
  ['POST', '/records/links/batch', { body: { items: [] } }, 'items'],
  [
    'POST',
    '/workflows',
    { body: { name: 'X', trigger: { type: 'INCOMING_WEBHOOK' }, actions: [{ type: 'SEND_FAX' }] } },
    'actions.0.type',
  ],
  [
    'POST',
    '/workflows',
    {
      body: {
        name: 'X',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [{ type: 'ADD_COMMENT', text: 'See {{ steps.0.output.id }}' }],
      },
    },
    'actions.0.text',
  ],
];

// Webhook subscriptions, deliveries and the event feed (docs/webhooks.md). The test app allows
// 127.0.0.1 as a destination and runs no worker, so nothing is really sent.
const MISSING_WEBHOOK = 'wh_01jq3v6f6ve7s9t8m1k2c3d4e5';
const MISSING_DELIVERY = 'dlv_01jq3v6f6ve7s9t8m1k2c3d4e5';

successWalks['webhooks and events'] = async (send) => {
  const body = { url: 'http://127.0.0.1:1/hook', events: ['*'], headers: { 'X-Token': 'token-1234567890' } };
  const created = await send('POST', '/webhooks', 201, { body });
  expect(created.body.data.secret).toMatch(/^whsec_/);
  const id = created.body.data.id;
  await send('GET', '/webhooks', 200, { query: { pageSize: '10' } });
  await send('GET', '/webhooks/{id}', 200, { params: { id } });
  await send('PATCH', '/webhooks/{id}', 200, {
    params: { id },
    body: { description: `Renamed ${unique()}` },
  });
  await send('POST', '/webhooks/{id}/rotate-secret', 200, { params: { id } });
  const test = await send('POST', '/webhooks/{id}/test', 200, { params: { id } });
  await send('GET', '/webhooks/{id}/deliveries', 200, { params: { id } });
  const redelivered = await send('POST', '/deliveries/{id}/redeliver', 201, {
    params: { id: test.body.data.id },
  });
  const delivery = await send('GET', '/deliveries/{id}', 200, { params: { id: redelivered.body.data.id } });
  expect(delivery.body.data.redeliveryOf).toBe(test.body.data.id);
  await send('GET', '/events', 200, { query: { types: 'record.created,deal.created', limit: '10' } });
  const deleted = await send('DELETE', '/webhooks/{id}', 200, { params: { id } });
  expect(deleted.body.data).toEqual({ id, deleted: true });
};

notFoundWalks['webhooks and events'] = async (send) => {
  const webhook = { id: MISSING_WEBHOOK };
  await send('GET', '/webhooks/{id}', 404, { params: webhook });
  await send('PATCH', '/webhooks/{id}', 404, { params: webhook, body: { description: 'X' } });
  await send('DELETE', '/webhooks/{id}', 404, { params: webhook });
  await send('POST', '/webhooks/{id}/rotate-secret', 404, { params: webhook });
  await send('POST', '/webhooks/{id}/test', 404, { params: webhook });
  await send('GET', '/webhooks/{id}/deliveries', 404, { params: webhook });
  await send('POST', '/deliveries/{id}/redeliver', 404, { params: { id: MISSING_DELIVERY } });
  await send('GET', '/deliveries/{id}', 404, { params: { id: MISSING_DELIVERY } });
};

// Workflows and their runs (docs/workflows.md). The test app runs no worker: a walk executes the
// run itself, as the worker's job would.
const MISSING_WORKFLOW = 'wf_7ztm1m0ny2bk3r2yj0jvbxg0qa';
const MISSING_RUN = 'run_01jq3v6f6ve7s9t8m1k2c3d4e5';

successWalks.workflows = async (send, ws, app) => {
  const body = {
    name: `Web form ${unique()}`,
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions: [{ type: 'CREATE_RECORD', folderId: ws.folderId, title: '{{ trigger.body.name }}' }],
  };
  const created = await send('POST', '/workflows', 201, { body });
  const id = created.body.data.id;
  expect(created.body.data.secret).toBeNull();
  await send('GET', '/workflows', 200, { query: { pageSize: '10' } });
  await send('GET', '/workflows/{id}', 200, { params: { id } });
  await send('PATCH', '/workflows/{id}', 200, { params: { id }, body: { name: `Renamed ${unique()}` } });
  // An empty value where a template was: saved, with a warning in meta (docs/workflows.md).
  const warned = await send('PATCH', '/workflows/{id}', 200, {
    params: { id },
    body: { actions: [{ type: 'CREATE_RECORD', folderId: ws.folderId, title: 'undefined' }] },
  });
  expect(warned.body.meta.warnings).toEqual([{ path: 'actions.0.title', message: expect.any(String) }]);
  await send('PATCH', '/workflows/{id}', 200, { params: { id }, body: { actions: body.actions } });
  await send('POST', '/workflows/{id}/disable', 200, { params: { id } });
  await send('POST', '/workflows/{id}/enable', 200, { params: { id } });
  const rotated = await send('POST', '/workflows/{id}/rotate-secret', 200, { params: { id } });
  expect(rotated.body.data.secret).toMatch(/^whsec_/);
  await send('PATCH', '/workflows/{id}', 200, { params: { id }, body: { requireSignature: false } });

  const triggered = await fetch(created.body.data.trigger.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Ada' }),
  });
  expect(triggered.status).toBe(200);
  const { runId } = (await triggered.json()) as { runId: string };
  await send('GET', '/workflows/{id}/runs', 200, { params: { id }, query: { status: 'QUEUED' } });
  await send('GET', '/runs/{id}', 200, { params: { id: runId } });
  await send('POST', '/runs/{id}/rerun', 409, { params: { id: runId } });
  await executeRun(
    app.service.db,
    { id: runId },
    {
      http: { allow: parseAllowList(undefined) },
      retry: { scale: 0.001, jitter: 0 },
    },
  );
  const finished = await send('GET', '/runs/{id}', 200, { params: { id: runId } });
  expect(finished.body.data.status).toBe('SUCCEEDED');
  const timeline = await send('GET', '/records/{id}/timeline', 200, {
    params: { id: finished.body.data.steps[0].output.id },
  });
  // The run was queued before it created the record.
  expect(timeline.body.data.map((e: { kind: string }) => e.kind)).toEqual(['record.created', 'workflow.run']);
  const again = await send('POST', '/runs/{id}/rerun', 201, { params: { id: runId } });
  expect(again.body.data).toMatchObject({ status: 'QUEUED', rerunOf: runId, input: { name: 'Ada' } });
  const cancelled = await send('POST', '/runs/{id}/cancel', 200, { params: { id: again.body.data.id } });
  expect(cancelled.body.data.status).toBe('CANCELLED');
  await send('POST', '/runs/{id}/cancel', 409, { params: { id: again.body.data.id } });

  // A run waiting for an approval: approved once, then a second answer is a 409.
  const approval = await send('POST', '/workflows', 201, {
    body: {
      name: 'Discounts',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'APPROVAL', name: 'ok', assigneeId: ws.userId, timeout: 'P3D' }],
    },
  });
  for (const answer of ['approve', 'reject'] as const) {
    const waiting = await fetch(approval.body.data.trigger.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { runId: waitingId } = (await waiting.json()) as { runId: string };
    await executeRun(
      app.service.db,
      { id: waitingId },
      { http: { allow: parseAllowList(undefined) }, retry: { scale: 0.001, jitter: 0 } },
    );
    const shown = await send('GET', '/runs/{id}', 200, { params: { id: waitingId } });
    expect(shown.body.data).toMatchObject({
      status: 'WAITING',
      steps: [{ path: '0', name: 'ok', status: 'WAITING' }],
    });
    const answered = await send('POST', `/runs/{id}/${answer}`, 200, {
      params: { id: waitingId },
      body: { comment: 'Checked' },
    });
    expect(answered.body.data.steps[0].output).toMatchObject({
      approved: answer === 'approve',
      comment: 'Checked',
    });
    await send('POST', `/runs/{id}/${answer === 'approve' ? 'reject' : 'approve'}`, 409, {
      params: { id: waitingId },
      body: {},
    });
  }
  const tested = await send('POST', '/workflows/test-code', 200, {
    body: { source: 'return { doubled: input.n * 2 };', input: { n: 21 } },
  });
  expect(tested.body.data).toMatchObject({ ok: true, output: { doubled: 42 }, error: null });
  const broken = await send('POST', '/workflows/test-code', 200, { body: { source: 'return (' } });
  expect(broken.body.data).toMatchObject({ ok: false, error: { kind: 'syntax' } });
  await send('POST', '/workflows/test-code', 400, { body: { source: '' } });
  const deleted = await send('DELETE', '/workflows/{id}', 200, { params: { id } });
  expect(deleted.body.data).toEqual({ id, deleted: true });
};

notFoundWalks.workflows = async (send) => {
  const workflow = { id: MISSING_WORKFLOW };
  await send('GET', '/workflows/{id}', 404, { params: workflow });
  await send('PATCH', '/workflows/{id}', 404, { params: workflow, body: { name: 'X' } });
  await send('DELETE', '/workflows/{id}', 404, { params: workflow });
  await send('POST', '/workflows/{id}/enable', 404, { params: workflow });
  await send('POST', '/workflows/{id}/disable', 404, { params: workflow });
  await send('POST', '/workflows/{id}/rotate-secret', 404, { params: workflow });
  await send('GET', '/workflows/{id}/runs', 404, { params: workflow });
  await send('GET', '/runs/{id}', 404, { params: { id: MISSING_RUN } });
  await send('POST', '/runs/{id}/rerun', 404, { params: { id: MISSING_RUN } });
  await send('POST', '/runs/{id}/cancel', 404, { params: { id: MISSING_RUN } });
  await send('POST', '/runs/{id}/approve', 404, { params: { id: MISSING_RUN }, body: {} });
  await send('POST', '/runs/{id}/reject', 404, { params: { id: MISSING_RUN }, body: {} });
};

// Relations between records, and the records of deals and tasks (docs/api.md, "Relations").
successWalks.relations = async (send, ws) => {
  const companies = (
    await send('POST', '/folders', 201, {
      body: {
        name: `Companies ${unique()}`,
        fields: [{ key: 'tier', label: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] }],
      },
    })
  ).body.data.id;
  const relation = {
    key: `employer`,
    label: 'Employer',
    type: 'RELATION',
    relation: { folderId: companies, cardinality: 'ONE', labels: ['Founder', 'Staff'] },
    inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
  };
  const people = (
    await send('POST', '/folders/{id}/fields', 201, { params: { id: ws.folderId }, body: relation })
  ).body.data;
  expect(people.fields.at(-1)).toMatchObject({
    key: 'employer',
    relation: { folderId: companies, cardinality: 'ONE', inverseKey: 'people' },
  });
  const acme = (
    await send('POST', '/records', 201, {
      body: { folderId: companies, title: 'Acme', data: { tier: 'Gold' } },
    })
  ).body.data.id;
  const ada = (
    await send('POST', '/records', 201, {
      body: { folderId: ws.folderId, title: 'Ada', data: { employer: { title: 'Acme' } } },
    })
  ).body.data;
  expect(ada.data.employer).toBe(acme);
  const expanded = await send('GET', '/records/{id}', 200, {
    params: { id: ada.id },
    query: { expand: 'employer' },
  });
  expect(expanded.body.data.expanded.employer).toMatchObject({ id: acme, title: 'Acme' });
  const listed = await send('GET', '/records', 200, {
    query: { folderId: ws.folderId, 'filter[employer.data.tier]': 'Gold', expand: 'employer' },
  });
  expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([ada.id]);
  const grace = (await send('POST', '/records', 201, { body: { folderId: ws.folderId, title: 'Grace' } }))
    .body.data.id;
  const link = { field: 'people', to: grace, label: 'Founder' };
  const made = await send('POST', '/records/{id}/links', 201, { params: { id: acme }, body: link });
  expect(made.body.data).toMatchObject({ from: acme, field: 'people', to: grace, label: 'Founder' });
  await send('POST', '/records/{id}/links', 200, { params: { id: acme }, body: link });
  const path = { id: acme, field: 'people', to: grace };
  await send('GET', '/records/{id}/links/{field}/{to}', 200, { params: path });
  const related = await send('GET', '/records/{id}/related/{field}', 200, {
    params: { id: acme, field: 'people' },
    query: { sort: 'title', count: 'true' },
  });
  expect(related.body.data.map((r: { title: string }) => r.title)).toEqual(['Ada', 'Grace']);
  expect(related.body.meta.total).toBe(2);
  await send('DELETE', '/records/{id}/links/{field}/{to}', 200, { params: path });
  const items = [
    { from: grace, field: 'employer', to: acme, label: 'Staff' },
    { from: grace, field: 'nope', to: acme },
  ];
  const batch = await send('POST', '/records/links/batch', 200, { body: { items } });
  expect(batch.body.data.map((d: { status: number }) => d.status)).toEqual([201, 400]);
  const unlinked = await send('POST', '/records/links/batch/delete', 200, {
    body: {
      items: [
        { from: grace, field: 'employer', to: acme },
        { from: ada.id, field: 'employer', to: grace },
      ],
    },
  });
  expect(unlinked.body.data.map((d: { status: number }) => d.status)).toEqual([200, 404]);

  const pipeline = (await send('GET', '/pipelines', 200)).body.data[0];
  const deal = (await send('POST', '/deals', 201, { body: { pipelineId: pipeline.id, recordId: acme } })).body
    .data.id;
  const onDeal = { params: { id: deal } };
  await send('POST', '/deals/{id}/links', 201, { ...onDeal, body: { to: ada.id, label: 'Decision maker' } });
  await send('POST', '/deals/{id}/links', 200, { ...onDeal, body: { to: ada.id, label: 'Champion' } });
  const participants = await send('GET', '/deals/{id}/links', 200, onDeal);
  expect(participants.body.data.map((r: { link: { primary: boolean } }) => r.link.primary)).toEqual([
    true,
    false,
  ]);
  await send('GET', '/records/{id}/deals', 200, { params: { id: ada.id }, query: { count: 'true' } });
  await send('DELETE', '/deals/{id}/links/{to}', 200, { params: { id: deal, to: ada.id } });
  await send('POST', '/deals/{id}/links', 201, { ...onDeal, body: { to: grace } });
  await send('DELETE', '/deals/{id}/links', 200, { ...onDeal, query: { to: grace } });
  const task = (await send('POST', '/tasks', 201, { body: { title: 'Call', recordId: acme } })).body.data.id;
  await send('POST', '/tasks/{id}/links', 201, { params: { id: task }, body: { to: grace } });
  await send('POST', '/tasks/{id}/links', 200, { params: { id: task }, body: { to: grace } });
  await send('GET', '/tasks/{id}/links', 200, { params: { id: task } });
  await send('GET', '/records/{id}/tasks', 200, { params: { id: grace } });
  await send('DELETE', '/tasks/{id}/links/{to}', 200, { params: { id: task, to: grace } });
  await send('POST', '/tasks/{id}/links', 201, { params: { id: task }, body: { to: ada.id } });
  await send('DELETE', '/tasks/{id}/links', 200, { params: { id: task }, body: { to: ada.id } });
  // A field that still links records is removed only with force=true.
  await send('DELETE', '/folders/{id}/fields/{key}', 409, { params: { id: ws.folderId, key: 'employer' } });
  await send('DELETE', '/folders/{id}/fields/{key}', 200, {
    params: { id: ws.folderId, key: 'employer' },
    query: { force: 'true' },
  });
};

notFoundWalks.relations = async (send, ws) => {
  const record = { id: MISSING.record };
  const path = { ...record, field: 'company', to: MISSING.record };
  await send('POST', '/records/{id}/links', 404, {
    params: record,
    body: { field: 'x', to: MISSING.record },
  });
  await send('GET', '/records/{id}/links/{field}/{to}', 404, { params: path });
  await send('DELETE', '/records/{id}/links/{field}/{to}', 404, { params: path });
  await send('GET', '/records/{id}/related/{field}', 404, { params: { ...record, field: 'company' } });
  await send('GET', '/records/{id}/deals', 404, { params: record });
  await send('GET', '/records/{id}/tasks', 404, { params: record });
  // A live record, but a field that is no RELATION field of its folder.
  const live = (await send('POST', '/records', 201, { body: { folderId: ws.folderId, title: 'Lone' } })).body
    .data.id;
  await send('GET', '/records/{id}/related/{field}', 404, { params: { id: live, field: 'company' } });
  for (const kind of ['deals', 'tasks'] as const) {
    const owner = { id: kind === 'deals' ? MISSING.deal : MISSING.task };
    await send('POST', `/${kind}/{id}/links`, 404, { params: owner, body: { to: live } });
    await send('GET', `/${kind}/{id}/links`, 404, { params: owner });
    await send('DELETE', `/${kind}/{id}/links/{to}`, 404, { params: { ...owner, to: live } });
    await send('DELETE', `/${kind}/{id}/links`, 404, { params: owner, query: { to: live } });
  }
};

/** Runs a job's queue jobs here until it has ended (the test app has no worker). */
async function runJobToEnd(app: TestApp, workspaceId: string, id: string): Promise<void> {
  for (let turn = 0; turn < 20; turn++) {
    await runJob(app.service.db, { workspaceId, id });
    const [row] = (
      await app.service.pool.query<{ status: string }>('select status from jobs where id = $1', [id])
    ).rows;
    if (row && !['QUEUED', 'RUNNING'].includes(row.status)) return;
  }
  throw new Error(`job ${id} did not end`);
}

successWalks.jobs = async (send, ws, app) => {
  const csv = { 'Content-Type': 'text/csv' };
  const imported = await send('POST', '/jobs/imports', 201, {
    body: {
      folderId: ws.folderId,
      format: 'csv',
      mapping: { Name: 'title', Email: 'email' },
      upsertBy: 'email',
    },
  });
  const id = imported.body.data.id;
  await send('PUT', '/jobs/{id}/file', 415, {
    params: { id },
    body: 'Name\nA\n',
    headers: { 'Content-Type': 'text/plain' },
  });
  await send('PUT', '/jobs/{id}/file', 400, {
    params: { id },
    body: 'Name,Email\nA,a@example.com,extra\n',
    headers: csv,
  });
  const rows = 'Name,Email\nAda,ada@example.com\nGrace,not-an-email\n';
  await send('PUT', '/jobs/{id}/file', 202, { params: { id }, body: rows, headers: csv });
  await send('PUT', '/jobs/{id}/file', 409, { params: { id }, body: rows, headers: csv });
  await runJobToEnd(app, ws.workspaceId, id);
  const done = await send('GET', '/jobs/{id}', 200, { params: { id } });
  expect(done.body.data).toMatchObject({ status: 'SUCCEEDED', progress: { created: 1, refused: 1 } });
  await send('GET', '/jobs/{id}/results', 200, { params: { id } });
  await send('GET', '/jobs', 200, { query: { type: 'IMPORT' } });
  await send('POST', '/jobs/{id}/cancel', 409, { params: { id } });

  const exported = await send('POST', '/jobs/exports', 201, {
    body: { folderId: ws.folderId, format: 'csv' },
  });
  const exportId = exported.body.data.id;
  await send('GET', '/jobs/{id}/file', 409, { params: { id: exportId } });
  await runJobToEnd(app, ws.workspaceId, exportId);
  await send('GET', '/jobs/{id}/file', 200, { params: { id: exportId } });
  await send('POST', '/jobs/{id}/revert', 409, { params: { id: exportId } });
  await app.service.pool.query("update jobs set expires_at = now() - interval '1 second' where id = $1", [
    exportId,
  ]);
  await send('GET', '/jobs/{id}/file', 410, { params: { id: exportId } });

  const change = { folderId: ws.folderId, set: { data: { lifecycle: 'Customer' } } };
  const dry = await send('POST', '/jobs/updates', 200, { body: { ...change, dryRun: true } });
  expect(dry.body.data.matched).toBe(1);
  const update = await send('POST', '/jobs/updates', 201, { body: change });
  await runJobToEnd(app, ws.workspaceId, update.body.data.id);
  const revert = await send('POST', '/jobs/{id}/revert', 201, { params: { id: update.body.data.id } });
  await send('POST', '/jobs/{id}/cancel', 200, { params: { id: revert.body.data.id } });
};

notFoundWalks.jobs = async (send, ws) => {
  const job = { id: 'job_01jq3v6f6ve7s9t8m1k2c3d4e5' };
  await send('GET', '/jobs/{id}', 404, { params: job });
  await send('POST', '/jobs/{id}/cancel', 404, { params: job });
  await send('POST', '/jobs/{id}/revert', 404, { params: job });
  await send('GET', '/jobs/{id}/results', 404, { params: job });
  await send('GET', '/jobs/{id}/file', 404, { params: job });
  await send('PUT', '/jobs/{id}/file', 404, {
    params: job,
    body: 'Name\n',
    headers: { 'Content-Type': 'text/csv' },
  });
  const folder = { folderId: MISSING.folder };
  await send('POST', '/jobs/imports', 404, {
    body: { ...folder, format: 'csv', mapping: { Name: 'title' } },
  });
  await send('POST', '/jobs/exports', 404, { body: { ...folder, format: 'csv' } });
  await send('POST', '/jobs/updates', 404, { body: { ...folder, trash: true } });
  void ws;
};

successWalks['configuration and sandboxes'] = async (send) => {
  const exported = await send('GET', '/config', 200);
  const document = exported.body.data;
  const plan = await send('POST', '/config/plan', 200, { body: { document } });
  expect(plan.body.data.changes).toEqual([]);
  const applied = await send('POST', '/config/apply', 200, { body: { document } });
  expect(applied.body.data).toEqual({ changes: [], left: [], secrets: [] });
  const made = await send('POST', '/sandboxes', 201, { body: { name: `Sandbox ${unique()}` } });
  const id = made.body.data.id;
  await send('GET', '/sandboxes', 200);
  await send('GET', '/sandboxes/{id}', 200, { params: { id } });
  await send('DELETE', '/sandboxes/{id}', 200, { params: { id } });
};

notFoundWalks['configuration and sandboxes'] = async (send) => {
  const sandbox = { id: 'ws_01jq3v6f6ve7s9t8m1k2c3d4e5' };
  await send('GET', '/sandboxes/{id}', 404, { params: sandbox });
  await send('DELETE', '/sandboxes/{id}', 404, { params: sandbox });
};
