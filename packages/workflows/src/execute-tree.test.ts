import {
  type Actor,
  answerApproval,
  cancelRun,
  createWorkflow,
  createWorkflowInput,
  fireSchedule,
  getRun,
  newId,
  type RunOutput,
  rightsOf,
} from '@crm/domain';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '@crm/domain/testing';
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
const services = { baseUrl: 'http://crm.test', checkOutboundUrl: async () => {} };
const workflowWith = (
  actor: Actor,
  actions: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
) => savedWorkflow(t.db, actor, actions, extra);
const queue = (actor: Actor, workflowId: string, body: unknown) =>
  queueTestRun(t.db, actor, workflowId, body);

const run = (actor: Actor, id: string): Promise<RunOutput> => getRun(t.db, actor, id);

/** Executes a run until it ends or waits, as the worker's jobs would (without their waits). */
async function runOn(id: string) {
  for (let i = 0; i < 200; i++) {
    const outcome = await executeRun(t.db, { id }, options);
    if (outcome === 'finished' || outcome === 'gone' || outcome === 'waiting') return outcome;
  }
  throw new Error('run did not finish');
}

const stepAt = (r: RunOutput, path: string) => r.steps.find((s) => s.path === path);

async function addMember(actor: Actor, role: 'MEMBER' | 'ADMIN'): Promise<Actor> {
  const userId = newId('user');
  await t.query('insert into users (id, email, name) values ($1, $2, $3)', [
    userId,
    `${userId}@example.com`,
    role,
  ]);
  await t.query('insert into memberships (workspace_id, user_id, role) values ($1, $2, $3)', [
    actor.workspaceId,
    userId,
    role,
  ]);
  return { ...actor, userId, userName: role, role, scopes: rightsOf(role) };
}

describe('branches', () => {
  it('runs the arm the condition chooses, shows the other SKIPPED, and goes on after the branch', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const flow = await workflowWith(actor, [
      {
        type: 'BRANCH',
        name: 'big',
        if: {
          all: [
            { left: '{{ trigger.body.amount }}', operator: 'GREATER_THAN', right: 1000 },
            { not: { left: '{{ trigger.body.country }}', operator: 'EQUALS', right: 'FR' } },
          ],
        },
        then: [
          {
            type: 'CREATE_RECORD',
            name: 'vip',
            folderId: peopleFolderId,
            title: 'VIP {{ trigger.body.name }}',
          },
        ],
        else: [{ type: 'CREATE_RECORD', folderId: peopleFolderId, title: 'Small {{ trigger.body.name }}' }],
      },
      {
        type: 'ADD_COMMENT',
        text: 'branch passed: {{ steps.big.output.passed }}, vip {{ steps.vip.output.title }}',
      },
    ]);
    const big = await queue(actor, flow.id, { amount: 5000, country: 'DE', name: 'Ada' });
    await runOn(big);
    const done = await run(actor, big);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.steps.map((s) => [s.path, s.status])).toEqual([
      ['0', 'SUCCEEDED'],
      ['0.then.0', 'SUCCEEDED'],
      ['0.else.0', 'SKIPPED'],
      ['1', 'SUCCEEDED'],
    ]);
    expect(stepAt(done, '0')!.output).toEqual({ passed: true });
    expect(stepAt(done, '0.then.0')!.name).toBe('vip');
    expect(stepAt(done, '1')!.input).toMatchObject({ text: 'branch passed: true, vip VIP Ada' });

    const small = await queue(actor, flow.id, { amount: 5000, country: 'FR', name: 'Bob' });
    await runOn(small);
    const other = await run(actor, small);
    expect(other.steps.map((s) => [s.path, s.status])).toEqual([
      ['0', 'SUCCEEDED'],
      ['0.then.0', 'SKIPPED'],
      ['0.else.0', 'SUCCEEDED'],
      ['1', 'SUCCEEDED'],
    ]);
    const titles = await t.query<{ title: string }>(
      'select title from records where workspace_id = $1 order by title',
      [actor.workspaceId],
    );
    expect(titles.map((r) => r.title)).toEqual(['Small Bob', 'VIP Ada']);
  });
});

describe('loops', () => {
  it('runs the body once per item with item and loop.index, keeps each item’s steps, and counts failures', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const flow = await workflowWith(actor, [
      {
        type: 'FOR_EACH',
        name: 'lines',
        items: '{{ trigger.body.people }}',
        continueOnError: true,
        actions: [
          {
            type: 'CREATE_RECORD',
            name: 'person',
            folderId: peopleFolderId,
            title: '{{ item.name }}',
            email: '{{ item.email }}',
          },
          { type: 'ADD_COMMENT', text: 'number {{ loop.index }}: {{ steps.person.output.title }}' },
        ],
      },
      { type: 'CODE', name: 'sum', source: 'return { seen: input.steps.lines.output.count };' },
    ]);
    const id = await queue(actor, flow.id, {
      people: [
        { name: 'Ada', email: 'ada@example.com' },
        { name: 'Bad', email: 'not an email' },
        { name: 'Cy', email: 'cy@example.com' },
      ],
    });
    await runOn(id);
    const done = await run(actor, id);
    expect(done.status).toBe('SUCCEEDED');
    expect(stepAt(done, '0')!.output).toEqual({ count: 3, failed: 1 });
    expect(stepAt(done, '0.items.0.1')!.input).toMatchObject({ text: 'number 0: Ada' });
    expect(stepAt(done, '0.items.1.0')!.status).toBe('FAILED');
    expect(stepAt(done, '0.items.1.1')!.status).toBe('SKIPPED');
    expect(stepAt(done, '0.items.2.1')!.input).toMatchObject({ text: 'number 2: Cy' });
    expect(stepAt(done, '1')!.output).toEqual({ seen: 3 });
    const comments = await t.query('select id from comments where workspace_id = $1', [actor.workspaceId]);
    expect(comments).toHaveLength(2);
  });

  it('fails the run on a failed item without continueOnError, and refuses more than 1,000 items', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const strict = await workflowWith(actor, [
      {
        type: 'FOR_EACH',
        items: '{{ trigger.body.people }}',
        actions: [{ type: 'CREATE_RECORD', folderId: peopleFolderId, title: 'x', email: '{{ item }}' }],
      },
    ]);
    const id = await queue(actor, strict.id, { people: ['bad'] });
    await runOn(id);
    const failed = await run(actor, id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/^Step 0\.items\.0\.0 \(CREATE_RECORD\) failed/);

    const many = await queue(actor, strict.id, {
      people: Array.from({ length: 1001 }, (_, i) => `p${i}@example.com`),
    });
    await runOn(many);
    const refused = await run(actor, many);
    expect(refused.status).toBe('FAILED');
    expect(refused.error).toContain('1001 items; at most 1000');
  });

  it('goes through the records of a query, as the workflow’s maker sees them', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const seed = await workflowWith(actor, [
      { type: 'CREATE_RECORD', folderId: peopleFolderId, title: 'Lead one' },
      { type: 'CREATE_RECORD', folderId: peopleFolderId, title: 'Lead two' },
      { type: 'CREATE_RECORD', folderId: peopleFolderId, title: 'Customer' },
    ]);
    await runOn(await queue(actor, seed.id, {}));
    const flow = await workflowWith(actor, [
      {
        type: 'FOR_EACH',
        records: { folderId: peopleFolderId, q: 'lead', sort: 'title' },
        actions: [{ type: 'ADD_COMMENT', recordId: '{{ item.id }}', text: 'seen {{ item.title }}' }],
      },
    ]);
    const id = await queue(actor, flow.id, {});
    await runOn(id);
    const done = await run(actor, id);
    expect(done.status).toBe('SUCCEEDED');
    expect(stepAt(done, '0')!.output).toEqual({ count: 2, failed: 0 });
    expect(stepAt(done, '0.items.1.0')!.input).toMatchObject({ text: 'seen Lead two' });
  });
});

describe('waits', () => {
  it('waits for a DELAY without a worker, and goes on after its moment', async () => {
    const { actor } = await newWorkspace(t.db);
    const flow = await workflowWith(actor, [
      { type: 'DELAY', name: 'pause', for: 'PT1S' },
      { type: 'HTTP_REQUEST', url: `${receiverUrl}/after` },
    ]);
    const id = await queue(actor, flow.id, {});
    expect(await runOn(id)).toBe('waiting');
    const waiting = await run(actor, id);
    expect(waiting.status).toBe('WAITING');
    expect(waiting.resumeAt).not.toBeNull();
    expect(stepAt(waiting, '0')!.status).toBe('WAITING');
    // A job that comes early finds the wait going on.
    expect(await runOn(id)).toBe('waiting');
    expect(received).toHaveLength(0);
    const job = await t.query<{ run_at: Date }>(`select run_at from graphile_worker.jobs where key = $1`, [
      `run:${id}`,
    ]);
    expect(job).toHaveLength(1);
    expect(new Date(job[0]!.run_at).toISOString()).toBe(waiting.resumeAt);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(waiting.resumeAt!) - Date.now() + 50));
    expect(await runOn(id)).toBe('finished');
    const done = await run(actor, id);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.resumeAt).toBeNull();
    expect(received).toHaveLength(1);
  });

  it('goes on at once when the moment has passed', async () => {
    const { actor } = await newWorkspace(t.db);
    const flow = await workflowWith(actor, [
      { type: 'DELAY', until: '{{ trigger.body.when }}' },
      { type: 'DELAY', until: '2020-01-01', at: '09:00', timezone: 'Europe/Berlin' },
    ]);
    const id = await queue(actor, flow.id, { when: '2021-05-01T10:00:00Z' });
    expect(await runOn(id)).toBe('finished');
    const done = await run(actor, id);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.steps.map((s) => s.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect(Date.parse((stepAt(done, '1')!.output as { resumeAt: string }).resumeAt)).toBeLessThanOrEqual(
      Date.now(),
    );
  });

  it('waits for an approval by its assignee or an admin, answered once', async () => {
    const { actor } = await newWorkspace(t.db);
    const member = await addMember(actor, 'MEMBER');
    const other = await addMember(actor, 'MEMBER');
    const flow = await workflowWith(actor, [
      {
        type: 'APPROVAL',
        name: 'ok',
        assigneeId: member.userId,
        title: 'Discount for {{ trigger.body.name }}',
      },
      {
        type: 'BRANCH',
        if: { left: '{{ steps.ok.output.approved }}', operator: 'EQUALS', right: true },
        then: [{ type: 'HTTP_REQUEST', url: `${receiverUrl}/approved` }],
        else: [{ type: 'HTTP_REQUEST', url: `${receiverUrl}/rejected` }],
      },
    ]);
    const id = await queue(actor, flow.id, { name: 'Ada' });
    const outcome = await runOn(id);
    expect(outcome, JSON.stringify(await run(actor, id))).toBe('waiting');
    const waiting = await run(actor, id);
    expect(waiting.status).toBe('WAITING');
    const taskId = (stepAt(waiting, '0')!.output as { taskId: string }).taskId;
    const [task] = await t.query<{ title: string; assignee_id: string; status: string }>(
      'select title, assignee_id, status from tasks where id = $1',
      [taskId],
    );
    expect(task).toMatchObject({ title: 'Discount for Ada', assignee_id: member.userId, status: 'OPEN' });

    await expectDomainError(answerApproval(t.db, other, { id }, true), 'FORBIDDEN');
    const answered = await answerApproval(t.db, member, { id, comment: 'fine' }, false);
    expect(answered.status).toBe('QUEUED');
    await expectDomainError(answerApproval(t.db, actor, { id }, true), 'CONFLICT');
    expect(await runOn(id)).toBe('finished');
    const done = await run(actor, id);
    expect(done.status).toBe('SUCCEEDED');
    expect(stepAt(done, '0')!.output).toMatchObject({ approved: false, by: member.userId, comment: 'fine' });
    expect(received.map((r) => JSON.parse(JSON.stringify(r.headers['idempotency-key'])))).toEqual([
      `${id}:1.else.0`,
    ]);
    const [completed] = await t.query<{ status: string }>('select status from tasks where id = $1', [taskId]);
    expect(completed!.status).toBe('DONE');
  });

  it('applies onTimeout when nobody answers in time', async () => {
    const { actor } = await newWorkspace(t.db);
    const flow = await workflowWith(actor, [
      { type: 'APPROVAL', assigneeId: actor.userId, timeout: 'PT1S', onTimeout: 'APPROVE' },
    ]);
    const id = await queue(actor, flow.id, {});
    expect(await runOn(id)).toBe('waiting');
    const waiting = await run(actor, id);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(waiting.resumeAt!) - Date.now() + 50));
    expect(await runOn(id)).toBe('finished');
    const done = await run(actor, id);
    expect(stepAt(done, '0')!.output).toMatchObject({ approved: true, by: null, timedOut: true });
  });

  it('cancels a waiting run: its job goes, nothing after it runs, and a second cancel is a 409', async () => {
    const { actor } = await newWorkspace(t.db);
    const flow = await workflowWith(actor, [
      { type: 'DELAY', for: 'PT1H' },
      { type: 'HTTP_REQUEST', url: `${receiverUrl}/never` },
    ]);
    const id = await queue(actor, flow.id, {});
    expect(await runOn(id)).toBe('waiting');
    const cancelled = await cancelRun(t.db, actor, id);
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.steps.map((s) => s.status)).toEqual(['WAITING', 'SKIPPED']);
    expect(await t.query('select 1 from graphile_worker.jobs where key = $1', [`run:${id}`])).toHaveLength(0);
    expect(await runOn(id)).toBe('finished');
    expect(received).toHaveLength(0);
    await expectDomainError(cancelRun(t.db, actor, id), 'CONFLICT');
  });
});

describe('failures', () => {
  it('sends the same Idempotency-Key on every attempt of a step', async () => {
    const { actor } = await newWorkspace(t.db);
    const flow = await workflowWith(actor, [{ type: 'HTTP_REQUEST', url: `${receiverUrl}/flaky` }]);
    receiver.replies = [503, 503];
    const id = await queue(actor, flow.id, {});
    await runOn(id);
    await runOn(id);
    await runOn(id);
    expect((await run(actor, id)).status).toBe('SUCCEEDED');
    expect(received.map((r) => r.headers['idempotency-key'])).toEqual([`${id}:0`, `${id}:0`, `${id}:0`]);
  });

  it('writes workflow.run_failed and a task for each member to notify', async () => {
    const { actor } = await newWorkspace(t.db);
    const flow = await workflowWith(
      actor,
      [{ type: 'CODE', name: 'boom', source: 'const a = 1;\nthrow new Error("no way");' }],
      { notifyOnFailure: [actor.userId] },
    );
    const id = await queue(actor, flow.id, {});
    await runOn(id);
    const failed = await run(actor, id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toContain('no way');
    expect(failed.error).toContain('line 2');
    expect(stepAt(failed, '0')!.attempts).toBe(1);
    const events = await t.query<{ payload: Record<string, unknown> }>(
      `select payload from events where workspace_id = $1 and type = 'workflow.run_failed'`,
      [actor.workspaceId],
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      workflowId: flow.id,
      workflowName: 'Flow',
      runId: id,
      step: { path: '0', name: 'boom' },
      actor: { type: 'workflow', id },
    });
    const tasks = await t.query<{ title: string; assignee_id: string }>(
      'select title, assignee_id from tasks where workspace_id = $1',
      [actor.workspaceId],
    );
    expect(tasks).toHaveLength(1);
    expect(tasks[0]!.assignee_id).toBe(actor.userId);
  });
});

describe('schedules', () => {
  it('shows the next firing, and starts one run per firing however often the job runs', async () => {
    const { actor } = await newWorkspace(t.db);
    const input = createWorkflowInput.parse({
      name: 'Every minute',
      trigger: { type: 'SCHEDULE', cron: '* * * * *', timezone: 'Europe/Berlin' },
      actions: [{ type: 'CODE', source: 'return input.trigger.body;' }],
    });
    const flow = await createWorkflow(t.db, actor, input, services);
    expect(flow.trigger).toMatchObject({ type: 'SCHEDULE', cron: '* * * * *', timezone: 'Europe/Berlin' });
    expect(Date.parse(flow.trigger.nextRunAt!)).toBeGreaterThan(Date.now());
    // The firing of the current minute is due (the workflow was saved before it).
    await t.query(
      `update workflows set last_scheduled_for = null, updated_at = now() - interval '2 minutes' where id = $1`,
      [flow.id],
    );
    const fired = await Promise.all([
      fireSchedule(t.db, { workflowId: flow.id, workspaceId: actor.workspaceId }),
      fireSchedule(t.db, { workflowId: flow.id, workspaceId: actor.workspaceId }),
      fireSchedule(t.db, { workflowId: flow.id, workspaceId: actor.workspaceId }),
    ]);
    expect(fired.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    const runs = await t.query<{ id: string; input: { scheduledFor: string } }>(
      'select id, input from workflow_runs where workflow_id = $1',
      [flow.id],
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]!.input.scheduledFor).toMatch(/:00\.000Z$/);
    const jobs = await t.query('select run_at from graphile_worker.jobs where key = $1', [
      `schedule:${flow.id}`,
    ]);
    expect(jobs).toHaveLength(1);
  });
});
