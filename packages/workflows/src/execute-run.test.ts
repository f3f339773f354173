import { schema } from '@crm/db';
import {
  type Actor,
  addFolderField,
  createDeal,
  createFolder,
  createRecord,
  findPipelines,
  getRun,
  type RunOutput,
  startEventWorkflows,
  updateDeal,
} from '@crm/domain';
import { newWorkspace, openTestDb, type TestDb } from '@crm/domain/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeRun } from './execute-run.ts';
import {
  queueTestRun,
  workflowWith as savedWorkflow,
  TestReceiver,
  testEngineOptions,
} from './testing/engine-fixtures.ts';

let t: TestDb;
const receiver = new TestReceiver();
const { received } = receiver;
let receiverUrl: string;

beforeAll(async () => {
  t = await openTestDb();
  receiverUrl = (await receiver.start()).url;
});
afterAll(async () => {
  await receiver.stop();
  await t?.close();
});
beforeEach(() => receiver.reset());

const options = testEngineOptions;
const workflowWith = (actor: Actor, actions: Record<string, unknown>[], trigger = 'INCOMING_WEBHOOK') =>
  savedWorkflow(t.db, actor, actions, { trigger: { type: trigger } });
const queue = (actor: Actor, workflowId: string, body: unknown, recordId: string | null = null) =>
  queueTestRun(t.db, actor, workflowId, body, recordId);

const run = (actor: Actor, id: string): Promise<RunOutput> => getRun(t.db, actor, id);

/** Executes a run to its end, as the worker's jobs would (retries included, without their waits). */
async function runToEnd(id: string) {
  for (let i = 0; i < 20; i++) {
    const outcome = await executeRun(t.db, { id }, options);
    if (outcome === 'finished' || outcome === 'gone') return;
  }
  throw new Error('run did not finish');
}

describe('the lead-intake flow', () => {
  it('upserts the lead, assigns an owner, creates a task and a deal in the first stage, calls an external API', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const pipeline = (await findPipelines(t.db, actor, {})).data[0]!;
    const workflow = await workflowWith(actor, [
      {
        type: 'CREATE_RECORD',
        folderId: peopleFolderId,
        title: '{{ trigger.body.name }}',
        email: '{{ trigger.body.email }}',
        phone: '{{ trigger.body.phone }}',
        data: { company: '{{ trigger.body.company }}' },
        upsertBy: 'email',
      },
      { type: 'ASSIGN_OWNER', ownerId: actor.userId },
      {
        type: 'CREATE_TASK',
        title: 'Call {{ record.title }}',
        dueInDays: 2,
        priority: 'HIGH',
        taskType: 'CALL',
      },
      {
        type: 'CREATE_DEAL',
        pipelineId: pipeline.id,
        title: '{{ record.data.company }} deal',
        amount: '{{ trigger.body.budget }}',
      },
      { type: 'ADD_COMMENT', text: 'Lead says: {{ trigger.body.message }}' },
      {
        type: 'HTTP_REQUEST',
        url: `${receiverUrl}/leads?source={{ trigger.body.source }}`,
        headers: { 'X-Token': 'abc' },
        body: {
          email: '{{ record.email }}',
          deal: '{{ steps.3.output.id }}',
          amount: '{{ steps.3.output.amount }}',
        },
      },
    ]);
    // The lead already exists: the upsert updates it instead of creating a second one.
    const existing = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Old name',
      email: 'ada@example.com',
    });
    const form = {
      name: 'Ada Lovelace',
      email: 'ADA@example.com',
      company: 'Analytical Engines',
      budget: 1250.5,
      message: 'Please call me',
      source: 'web',
    };
    const runId = await queue(actor, workflow.id, form);
    await runToEnd(runId);

    const result = await run(actor, runId);
    expect(result.status).toBe('SUCCEEDED');
    expect(result.error).toBeNull();
    expect(result.steps.map((s) => [s.action, s.status, s.attempts])).toEqual([
      ['CREATE_RECORD', 'SUCCEEDED', 1],
      ['ASSIGN_OWNER', 'SUCCEEDED', 1],
      ['CREATE_TASK', 'SUCCEEDED', 1],
      ['CREATE_DEAL', 'SUCCEEDED', 1],
      ['ADD_COMMENT', 'SUCCEEDED', 1],
      ['HTTP_REQUEST', 'SUCCEEDED', 1],
    ]);
    expect(result.startedAt).not.toBeNull();
    expect(result.finishedAt).not.toBeNull();

    const records = await t.db
      .select()
      .from(schema.records)
      .where(eq(schema.records.workspaceId, actor.workspaceId));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      id: existing.record.id,
      title: 'Ada Lovelace',
      ownerId: actor.userId,
      phone: null,
      data: { company: 'Analytical Engines' },
    });
    expect(result.steps[0]!.input).toMatchObject({
      title: 'Ada Lovelace',
      email: 'ADA@example.com',
      phone: null,
    });
    expect(result.steps[0]!.output).toMatchObject({ id: existing.record.id, created: false });

    const [task] = await t.db
      .select()
      .from(schema.tasks)
      .where(eq(schema.tasks.workspaceId, actor.workspaceId));
    expect(task).toMatchObject({
      title: 'Call Ada Lovelace',
      recordId: existing.record.id,
      priority: 'HIGH',
      type: 'CALL',
    });
    const dueInMs = task!.dueAt!.getTime() - Date.now();
    expect(dueInMs).toBeGreaterThan(2 * 86_400_000 - 60_000);
    expect(dueInMs).toBeLessThan(2 * 86_400_000 + 60_000);

    const [deal] = await t.db
      .select()
      .from(schema.deals)
      .where(eq(schema.deals.workspaceId, actor.workspaceId));
    expect(deal).toMatchObject({
      title: 'Analytical Engines deal',
      stageId: pipeline.stages[0]!.id,
      recordId: existing.record.id,
    });
    expect(Number(deal!.amount)).toBe(1250.5);

    const [comment] = await t.db
      .select()
      .from(schema.comments)
      .where(eq(schema.comments.workspaceId, actor.workspaceId));
    expect(comment).toMatchObject({ recordId: existing.record.id, text: 'Lead says: Please call me' });

    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    expect(received[0]!.url).toBe('/leads?source=web');
    expect(received[0]!.headers['x-token']).toBe('abc');
    expect(received[0]!.headers['content-type']).toBe('application/json');
    // The upsert matched the email case-insensitively and stored it as the form sent it.
    expect(JSON.parse(received[0]!.body)).toEqual({
      email: 'ADA@example.com',
      deal: deal!.id,
      amount: 1250.5,
    });
    expect(result.steps[5]!.output).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { ok: true, crmId: 'ext-42' },
    });
  });

  it('runs in the context of the record the trigger names', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Grace' });
    const workflow = await workflowWith(actor, [
      {
        type: 'UPDATE_RECORD',
        title: '{{ record.title }} Hopper',
        data: { lifecycle: '{{ trigger.body.stage }}' },
      },
      { type: 'ADD_COMMENT', text: 'Moved to {{ record.data.lifecycle }}' },
    ]);
    const fields = await t.query<{ fields: { key: string; options?: string[] }[] }>(
      'select fields from folders where id = $1',
      [peopleFolderId],
    );
    const stage = fields[0]!.fields.find((f) => f.key === 'lifecycle')!.options![1]!;
    const runId = await queue(actor, workflow.id, { recordId: record.id, stage }, record.id);
    await runToEnd(runId);
    const result = await run(actor, runId);
    expect(result.status).toBe('SUCCEEDED');
    expect(result.recordId).toBe(record.id);
    const [stored] = await t.db.select().from(schema.records).where(eq(schema.records.id, record.id));
    expect(stored).toMatchObject({ title: 'Grace Hopper', data: { lifecycle: stage } });
    const [comment] = await t.db
      .select()
      .from(schema.comments)
      .where(eq(schema.comments.recordId, record.id));
    expect(comment!.text).toBe(`Moved to ${stage}`);
  });

  it('moves a deal a step created, by template', async () => {
    const { actor } = await newWorkspace(t.db);
    const pipeline = (await findPipelines(t.db, actor, {})).data[0]!;
    const workflow = await workflowWith(actor, [
      { type: 'CREATE_DEAL', pipelineId: pipeline.id, title: 'Won fast' },
      { type: 'MOVE_DEAL_STAGE', dealId: '{{ steps.0.output.id }}', stageId: '{{ trigger.body.stage }}' },
    ]);
    const runId = await queue(actor, workflow.id, { stage: pipeline.stages[3]!.id });
    await runToEnd(runId);
    const result = await run(actor, runId);
    expect(result.status).toBe('SUCCEEDED');
    const [deal] = await t.db
      .select()
      .from(schema.deals)
      .where(eq(schema.deals.workspaceId, actor.workspaceId));
    expect(deal!.stageId).toBe(pipeline.stages[3]!.id);
    const events = await t.query<{ type: string }>(
      'select type from events where workspace_id = $1 order by occurred_at, id',
      [actor.workspaceId],
    );
    expect(events.map((e) => e.type)).toEqual(['deal.created', 'deal.updated', 'deal.stage_changed']);
  });
});

describe('conditions', () => {
  it('stops the run as SUCCEEDED with later steps SKIPPED when false, and goes on when true', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const workflow = await workflowWith(actor, [
      { type: 'CONDITION', left: '{{ trigger.body.country }}', operator: 'EQUALS', right: 'FR' },
      { type: 'CREATE_RECORD', folderId: peopleFolderId, title: '{{ trigger.body.name }}' },
    ]);
    const skipped = await queue(actor, workflow.id, { country: 'DE', name: 'Hans' });
    await runToEnd(skipped);
    const stopped = await run(actor, skipped);
    expect(stopped.status).toBe('SUCCEEDED');
    expect(stopped.steps.map((s) => s.status)).toEqual(['SUCCEEDED', 'SKIPPED']);
    expect(stopped.steps[0]!.output).toEqual({ passed: false });

    const passed = await queue(actor, workflow.id, { country: 'FR', name: 'Marie' });
    await runToEnd(passed);
    expect((await run(actor, passed)).steps.map((s) => s.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    const titles = await t.query<{ title: string }>('select title from records where workspace_id = $1', [
      actor.workspaceId,
    ]);
    expect(titles.map((r) => r.title)).toEqual(['Marie']);
  });
});

describe('failures', () => {
  it('retries a failed step with backoff without repeating the steps that succeeded', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const workflow = await workflowWith(actor, [
      { type: 'CREATE_RECORD', folderId: peopleFolderId, title: 'Once only' },
      { type: 'HTTP_REQUEST', url: `${receiverUrl}/flaky`, body: { id: '{{ steps.0.output.id }}' } },
    ]);
    receiver.replies = [500, 503];
    const runId = await queue(actor, workflow.id, {});

    expect(await executeRun(t.db, { id: runId }, options)).toBe('retry-scheduled');
    const waiting = await run(actor, runId);
    expect(waiting.status).toBe('RUNNING');
    expect(waiting.steps[0]!.status).toBe('SUCCEEDED');
    expect(waiting.steps[1]).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(waiting.steps[1]!.error).toContain('answered 500');
    expect(waiting.steps[1]!.nextAttemptAt).not.toBeNull();
    const jobs = await t.query<{ run_at: Date }>(
      "select j.run_at from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'run_workflow' and j.payload->>'runId' = $1 and j.run_at > j.created_at",
      [runId],
    );
    expect(jobs).toHaveLength(1);

    await runToEnd(runId);
    const done = await run(actor, runId);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.steps[1]).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 3,
      error: null,
      nextAttemptAt: null,
    });
    expect(received).toHaveLength(3);
    const records = await t.query('select id from records where workspace_id = $1', [actor.workspaceId]);
    expect(records).toHaveLength(1);
  });

  it('fails the run with the reason after 5 failed attempts', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await workflowWith(actor, [
      { type: 'HTTP_REQUEST', url: `${receiverUrl}/down` },
      { type: 'ADD_COMMENT', text: 'never' },
    ]);
    receiver.replies = [500, 500, 500, 500, 500, 500];
    const runId = await queue(actor, workflow.id, {});
    await runToEnd(runId);
    const failed = await run(actor, runId);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(
      /^Step 0 \(HTTP_REQUEST\) failed after 5 attempts: POST 127\.0\.0\.1:\d+ answered 500/,
    );
    expect(failed.steps.map((s) => [s.status, s.attempts])).toEqual([
      ['FAILED', 5],
      ['SKIPPED', 0],
    ]);
    expect(failed.finishedAt).not.toBeNull();
    expect(received).toHaveLength(5);
  });

  it('fails at once, clearly, when a step needs a record and the run has none', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await workflowWith(actor, [{ type: 'ADD_COMMENT', text: 'hello' }]);
    const runId = await queue(actor, workflow.id, {});
    expect(await executeRun(t.db, { id: runId }, options)).toBe('finished');
    const failed = await run(actor, runId);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toBe(
      'Step 0 (ADD_COMMENT) failed: ADD_COMMENT needs a record: call the trigger with a recordId, create one in an earlier step, or give recordId',
    );
    expect(failed.steps[0]!.attempts).toBe(1);
  });

  it('fails at once when rendered values are invalid, naming the field', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const workflow = await workflowWith(actor, [
      { type: 'CREATE_RECORD', folderId: peopleFolderId, title: 'X', email: '{{ trigger.body.email }}' },
    ]);
    const runId = await queue(actor, workflow.id, { email: 'not-an-email' });
    await runToEnd(runId);
    const failed = await run(actor, runId);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toContain('email: must be an email address');
    expect(await t.query('select id from records where workspace_id = $1', [actor.workspaceId])).toHaveLength(
      0,
    );
  });

  it('refuses an HTTP_REQUEST to an address the guard forbids, without retrying', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await workflowWith(actor, [
      { type: 'HTTP_REQUEST', url: '{{ trigger.body.callback }}' },
    ]);
    const runId = await queue(actor, workflow.id, { callback: 'http://169.254.169.254/latest/meta-data' });
    await runToEnd(runId);
    const failed = await run(actor, runId);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toContain('refused address');
    expect(failed.steps[0]!.attempts).toBe(1);
  });

  it('refuses a header a template filled with a line break, without sending anything', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await workflowWith(actor, [
      { type: 'HTTP_REQUEST', url: `${receiverUrl}/h`, headers: { 'X-Name': '{{ trigger.body.name }}' } },
    ]);
    const runId = await queue(actor, workflow.id, { name: 'Ada\r\nX-Admin: yes' });
    await runToEnd(runId);
    const failed = await run(actor, runId);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toContain('header X-Name rendered to a value that is not printable ASCII');
    expect(received).toHaveLength(0);
  });
});

describe('concurrency and loops', () => {
  it('performs a step once when two workers execute the same run at the same time', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const workflow = await workflowWith(actor, [
      { type: 'CREATE_RECORD', folderId: peopleFolderId, title: 'Racer' },
    ]);
    const runId = await queue(actor, workflow.id, {});
    await t.warm(4);
    await Promise.all([executeRun(t.db, { id: runId }, options), executeRun(t.db, { id: runId }, options)]);
    expect((await run(actor, runId)).status).toBe('SUCCEEDED');
    expect(await t.query('select id from records where workspace_id = $1', [actor.workspaceId])).toHaveLength(
      1,
    );
  });

  it('starts event-triggered workflows once per event, and changes made by a workflow start none', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const workflow = await workflowWith(
      actor,
      [{ type: 'UPDATE_RECORD', data: { company: 'Tagged by automation' } }],
      'record.created',
    );
    await workflowWith(actor, [{ type: 'ADD_COMMENT', text: 'updated' }], 'record.updated');
    const { record } = await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Fresh' });
    const [event] = await t.query<{ id: string }>(
      "select id from events where workspace_id = $1 and type = 'record.created'",
      [actor.workspaceId],
    );
    expect(await startEventWorkflows(t.db, { id: event!.id, workspaceId: actor.workspaceId })).toBe(1);
    // A retried start job makes no second run.
    await startEventWorkflows(t.db, { id: event!.id, workspaceId: actor.workspaceId });
    const runs = await t.query<{ id: string; record_id: string; trigger: string }>(
      'select id, record_id, trigger from workflow_runs where workflow_id = $1',
      [workflow.id],
    );
    expect(runs).toEqual([{ id: expect.any(String), record_id: record.id, trigger: 'EVENT' }]);
    await runToEnd(runs[0]!.id);
    const result = await run(actor, runs[0]!.id);
    expect(result.status).toBe('SUCCEEDED');
    expect(result.input).toMatchObject({ event: 'record.created', recordId: record.id });

    // The update made by the run is a record.updated event that starts no workflow.
    const starts = await t.query<{ n: number }>(
      `select count(*)::int as n from graphile_worker._private_jobs j
         join graphile_worker._private_tasks k on k.id = j.task_id
         join events e on e.id = j.payload->>'eventId'
        where k.identifier = 'start_event_workflows' and e.workspace_id = $1`,
      [actor.workspaceId],
    );
    const updated = await t.query<{ id: string }>(
      "select id from events where workspace_id = $1 and type = 'record.updated'",
      [actor.workspaceId],
    );
    expect(updated).toHaveLength(1);
    // One start job: the record.created of the API call (the record.updated by the run queued none).
    expect(starts[0]!.n).toBe(1);
  });

  it('runs a deal event’s workflow in the context of the deal’s linked record', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const pipeline = (await findPipelines(t.db, actor, {})).data[0]!;
    const { record } = await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Buyer' });
    const workflow = await workflowWith(
      actor,
      [
        {
          type: 'ADD_COMMENT',
          text: 'Deal {{ trigger.body.deal.title }} moved to {{ trigger.body.toStageId }}',
        },
      ],
      'deal.stage_changed',
    );
    const deal = await createDeal(t.db, actor, {
      pipelineId: pipeline.id,
      title: 'Big one',
      recordId: record.id,
    });
    const startJobs = () =>
      t.query<{ event_type: string }>(
        `select e.type as event_type from graphile_worker._private_jobs j
           join graphile_worker._private_tasks k on k.id = j.task_id
           join events e on e.id = j.payload->>'eventId'
          where k.identifier = 'start_event_workflows' and e.workspace_id = $1`,
        [actor.workspaceId],
      );
    // deal.created and record.created start nothing: only a deal.stage_changed workflow exists.
    expect(await startJobs()).toEqual([]);
    await updateDeal(t.db, actor, { id: deal.id, stageId: pipeline.stages[2]!.id });
    expect(await startJobs()).toEqual([{ event_type: 'deal.stage_changed' }]);
    const [event] = await t.query<{ id: string }>(
      "select id from events where workspace_id = $1 and type = 'deal.stage_changed'",
      [actor.workspaceId],
    );
    await startEventWorkflows(t.db, { id: event!.id, workspaceId: actor.workspaceId });
    const [started] = await t.query<{ id: string }>('select id from workflow_runs where workflow_id = $1', [
      workflow.id,
    ]);
    await runToEnd(started!.id);
    expect((await run(actor, started!.id)).status).toBe('SUCCEEDED');
    const [comment] = await t.db
      .select()
      .from(schema.comments)
      .where(eq(schema.comments.recordId, record.id));
    expect(comment!.text).toBe(`Deal Big one moved to ${pipeline.stages[2]!.id}`);
  });
});

describe('relations', () => {
  it('links the record a form created to a company named by its title, and a record.linked workflow follows', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const companies = await createFolder(t.db, actor, { name: 'Companies' });
    await addFolderField(t.db, actor, {
      id: peopleFolderId,
      key: 'employer',
      label: 'Employer',
      type: 'RELATION',
      relation: { folderId: companies.id, cardinality: 'ONE', labels: ['Lead contact'] },
      inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
    });
    const { record: acme } = await createRecord(t.db, actor, { folderId: companies.id, title: 'Acme' });
    const intake = await workflowWith(actor, [
      { type: 'CREATE_RECORD', folderId: peopleFolderId, title: '{{ trigger.body.name }}' },
      {
        type: 'LINK_RECORDS',
        field: 'employer',
        to: '{{ trigger.body.company }}',
        by: 'title',
        label: 'Lead contact',
      },
    ]);
    const onLink = await workflowWith(
      actor,
      [{ type: 'ADD_COMMENT', text: 'Now at {{ trigger.body.to }} as {{ trigger.body.label }}' }],
      'record.linked',
    );
    const runId = await queue(actor, intake.id, { name: 'Ada', company: 'Acme' });
    await runToEnd(runId);
    const result = await run(actor, runId);
    expect(result.status).toBe('SUCCEEDED');
    const person = result.steps[0]!.output as { id: string };
    expect(result.steps[1]!.output).toMatchObject({
      from: person.id,
      field: 'employer',
      to: acme.id,
      label: 'Lead contact',
      created: true,
    });
    const [stored] = await t.db.select().from(schema.records).where(eq(schema.records.id, person.id));
    expect(stored!.data).toEqual({ employer: acme.id });
    // The record.linked workflow, started as the start job starts it for a link made through the API.
    const [fromRun] = await t.query<{ id: string }>(
      "select id from events where workspace_id = $1 and type = 'record.linked'",
      [actor.workspaceId],
    );
    expect(await startEventWorkflows(t.db, { id: fromRun!.id, workspaceId: actor.workspaceId })).toBe(1);
    const [started] = await t.query<{ id: string }>('select id from workflow_runs where workflow_id = $1', [
      onLink.id,
    ]);
    await runToEnd(started!.id);
    expect((await run(actor, started!.id)).status).toBe('SUCCEEDED');
    const [comment] = await t.db
      .select()
      .from(schema.comments)
      .where(eq(schema.comments.recordId, person.id));
    expect(comment!.text).toBe(`Now at ${acme.id} as Lead contact`);
    // A name that matches no record fails the step, clearly.
    const failing = await queue(actor, intake.id, { name: 'Grace', company: 'Nobody Inc' });
    await runToEnd(failing);
    const failed = await run(actor, failing);
    expect(failed.status).toBe('FAILED');
    expect(JSON.stringify(failed.steps[1])).toMatch(/no live record of folder Companies has the title/);
  });
});
