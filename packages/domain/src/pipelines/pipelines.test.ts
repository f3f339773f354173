import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeal } from '../deals/create-deal.ts';
import { updateDeal } from '../deals/update-deal.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { addStage } from './add-stage.ts';
import { createPipeline } from './create-pipeline.ts';
import { findPipelines } from './find-pipelines.ts';
import { getPipeline } from './get-pipeline.ts';
import { removeStage } from './remove-stage.ts';
import { renamePipeline } from './rename-pipeline.ts';
import { renameStage } from './rename-stage.ts';
import { reorderStages } from './reorder-stages.ts';
import { addStageInput, createPipelineInput, MAX_STAGES, reorderStagesInput } from './schemas.ts';
import { summarizePipeline } from './summarize-pipeline.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const names = (pipeline: { stages: { name: string }[] }) => pipeline.stages.map((s) => s.name);

/** The stored positions of a pipeline's stages, by name: gap-free from 0 after every change. */
const positions = (workspaceId: string, pipelineId: string) =>
  t
    .query<{ name: string; position: number }>(
      'select name, position from stages where workspace_id = $1 and pipeline_id = $2 order by position',
      [workspaceId, pipelineId],
    )
    .then((rows) => rows.map((r) => [r.name, r.position]));

const dealEvents = (workspaceId: string) =>
  t.query<{ type: string; payload: Record<string, unknown> }>(
    "select type, payload from events where workspace_id = $1 and type like 'deal.%' order by occurred_at, id",
    [workspaceId],
  );

describe('createPipeline', () => {
  it('creates the default stages in order, or the ones given, and lists pipelines newest first', async () => {
    const ws = await newWorkspace(t.db);
    const sales = await createPipeline(t.db, ws.actor, { name: 'Sales' });
    expect(sales.id).toMatch(/^pl_/);
    expect(names(sales)).toEqual(['Lead', 'Qualified', 'Proposal', 'Won', 'Lost']);
    const hiring = await createPipeline(t.db, ws.actor, {
      name: 'Hiring',
      stages: ['Applied', 'Interview', 'Offer'],
    });
    expect(names(hiring)).toEqual(['Applied', 'Interview', 'Offer']);
    expect(await positions(ws.actor.workspaceId, hiring.id)).toEqual([
      ['Applied', 0],
      ['Interview', 1],
      ['Offer', 2],
    ]);
    expect(await getPipeline(t.db, ws.actor, hiring.id)).toEqual(hiring);
    // A new workspace comes with its default pipeline, the oldest.
    const page = await findPipelines(t.db, ws.actor, {});
    expect(page.data.map((p) => p.name)).toEqual(['Hiring', 'Sales', expect.any(String)]);
    const firstTwo = await findPipelines(t.db, ws.actor, { pageSize: 2 });
    expect(firstTwo.data.map((p) => p.id)).toEqual([hiring.id, sales.id]);
    expect(firstTwo.meta.hasMore).toBe(true);
  });

  it('refuses a blank name, an empty list of stages and more than MAX_STAGES stages', () => {
    const problems = (input: unknown) =>
      createPipelineInput.safeParse(input).error?.issues.map((issue) => issue.path.join('.'));
    expect(problems({ name: '  ' })).toEqual(['name']);
    expect(problems({ name: 'P', stages: [] })).toEqual(['stages']);
    expect(
      problems({ name: 'P', stages: Array.from({ length: MAX_STAGES + 1 }, (_, i) => `S${i}`) }),
    ).toEqual(['stages']);
    expect(problems({ name: 'P', stages: ['A', ' '] })).toEqual(['stages.1']);
    expect(problems({ name: 'P', colour: 'red' })).toEqual(['']);
    expect(createPipelineInput.parse({ name: '  Sales ' }).name).toBe('Sales');
  });
});

describe('stage changes', () => {
  it('adds a stage where asked (last by default, and last past the end), keeping positions gap-free', async () => {
    const ws = await newWorkspace(t.db);
    const p = await createPipeline(t.db, ws.actor, { name: 'P', stages: ['A', 'B'] });
    expect(names(await addStage(t.db, ws.actor, { id: p.id, name: 'C' }))).toEqual(['A', 'B', 'C']);
    expect(names(await addStage(t.db, ws.actor, { id: p.id, name: 'First', position: 0 }))).toEqual([
      'First',
      'A',
      'B',
      'C',
    ]);
    const last = await addStage(t.db, ws.actor, { id: p.id, name: 'Far', position: 99 });
    expect(names(last)).toEqual(['First', 'A', 'B', 'C', 'Far']);
    expect(await positions(ws.actor.workspaceId, p.id)).toEqual([
      ['First', 0],
      ['A', 1],
      ['B', 2],
      ['C', 3],
      ['Far', 4],
    ]);
    expect(addStageInput.safeParse({ id: p.id, name: 'X', position: -1 }).success).toBe(false);
  });

  it(`refuses a stage beyond ${MAX_STAGES}`, async () => {
    const ws = await newWorkspace(t.db);
    const full = await createPipeline(t.db, ws.actor, {
      name: 'Full',
      stages: Array.from({ length: MAX_STAGES }, (_, i) => `S${i}`),
    });
    const error = await expectDomainError(
      addStage(t.db, ws.actor, { id: full.id, name: 'One more' }),
      'VALIDATION_FAILED',
    );
    expect(error.details).toEqual([
      { path: 'name', message: `a pipeline holds at most ${MAX_STAGES} stages` },
    ]);
    expect((await getPipeline(t.db, ws.actor, full.id)).stages).toHaveLength(MAX_STAGES);
  });

  it('renames a pipeline and a stage of it; a stage of another pipeline is not found', async () => {
    const ws = await newWorkspace(t.db);
    const p = await createPipeline(t.db, ws.actor, { name: 'P', stages: ['A', 'B'] });
    const other = await createPipeline(t.db, ws.actor, { name: 'Other', stages: ['X'] });
    const renamed = await renamePipeline(t.db, ws.actor, { id: p.id, name: 'Pipeline' });
    expect(renamed).toMatchObject({ id: p.id, name: 'Pipeline', stages: p.stages });
    const stage = await renameStage(t.db, ws.actor, { id: p.id, stageId: p.stages[1]!.id, name: 'Beta' });
    expect(names(stage)).toEqual(['A', 'Beta']);
    await expectDomainError(
      renameStage(t.db, ws.actor, { id: p.id, stageId: other.stages[0]!.id, name: 'Moved?' }),
      'NOT_FOUND',
    );
    expect(names(await getPipeline(t.db, ws.actor, other.id))).toEqual(['X']);
  });

  it('reorders stages only when given every stage exactly once', async () => {
    const ws = await newWorkspace(t.db);
    const p = await createPipeline(t.db, ws.actor, { name: 'P', stages: ['A', 'B', 'C'] });
    const [a, b, c] = p.stages.map((s) => s.id) as [string, string, string];
    const reordered = await reorderStages(t.db, ws.actor, { id: p.id, stageIds: [c, a, b] });
    expect(names(reordered)).toEqual(['C', 'A', 'B']);
    expect(await positions(ws.actor.workspaceId, p.id)).toEqual([
      ['C', 0],
      ['A', 1],
      ['B', 2],
    ]);
    for (const stageIds of [
      [a, b],
      [a, b, b],
      [a, b, c, c],
      [a, b, 'st_01jq3v6f6ve7s9t8m1k2c3d4e5'],
    ]) {
      const error = await expectDomainError(
        reorderStages(t.db, ws.actor, { id: p.id, stageIds }),
        'VALIDATION_FAILED',
      );
      expect(error.details).toEqual([
        { path: 'stageIds', message: 'must list every stage of the pipeline exactly once' },
      ]);
    }
    expect(names(await getPipeline(t.db, ws.actor, p.id))).toEqual(['C', 'A', 'B']);
    expect(reorderStagesInput.safeParse({ id: p.id, stageIds: [] }).success).toBe(false);
  });
});

describe('removeStage', () => {
  it('removes an empty stage and closes the gap', async () => {
    const ws = await newWorkspace(t.db);
    const p = await createPipeline(t.db, ws.actor, { name: 'P', stages: ['A', 'B', 'C'] });
    const removed = await removeStage(t.db, ws.actor, { id: p.id, stageId: p.stages[1]!.id });
    expect(names(removed)).toEqual(['A', 'C']);
    expect(await positions(ws.actor.workspaceId, p.id)).toEqual([
      ['A', 0],
      ['C', 1],
    ]);
  });

  it('keeps a stage holding deals unless they are moved to another stage of the pipeline', async () => {
    const ws = await newWorkspace(t.db);
    const p = await createPipeline(t.db, ws.actor, { name: 'P', stages: ['A', 'B'] });
    const other = await createPipeline(t.db, ws.actor, { name: 'Other', stages: ['X'] });
    const a = p.stages[0]!;
    await createDeal(t.db, ws.actor, { pipelineId: p.id, stageId: a.id, title: 'One' });
    await createDeal(t.db, ws.actor, { pipelineId: p.id, stageId: a.id, title: 'Two' });

    const held = await expectDomainError(
      removeStage(t.db, ws.actor, { id: p.id, stageId: a.id }),
      'VALIDATION_FAILED',
    );
    expect(held.details).toEqual([
      { path: 'moveDealsTo', message: `stage ${a.id} holds 2 deal(s); name a stage to move them to` },
    ]);
    const same = await expectDomainError(
      removeStage(t.db, ws.actor, { id: p.id, stageId: a.id, moveDealsTo: a.id }),
      'VALIDATION_FAILED',
    );
    expect(same.details).toEqual([
      { path: 'moveDealsTo', message: 'must be another stage than the one removed' },
    ]);
    const elsewhere = await expectDomainError(
      removeStage(t.db, ws.actor, { id: p.id, stageId: a.id, moveDealsTo: other.stages[0]!.id }),
      'VALIDATION_FAILED',
    );
    expect(elsewhere.details).toEqual([
      { path: 'moveDealsTo', message: `${other.stages[0]!.id} is not a stage of this pipeline` },
    ]);
    expect(names(await getPipeline(t.db, ws.actor, p.id))).toEqual(['A', 'B']);
    expect((await dealEvents(ws.actor.workspaceId)).map((e) => e.type)).toEqual([
      'deal.created',
      'deal.created',
    ]);
  });

  it('moves the deals first, each with deal.updated and deal.stage_changed, then removes the stage', async () => {
    const ws = await newWorkspace(t.db);
    const p = await createPipeline(t.db, ws.actor, { name: 'P', stages: ['A', 'B'] });
    const [a, b] = p.stages as unknown as [{ id: string }, { id: string }];
    const one = await createDeal(t.db, ws.actor, { pipelineId: p.id, stageId: a.id, title: 'One' });
    const two = await createDeal(t.db, ws.actor, { pipelineId: p.id, stageId: a.id, title: 'Two' });

    const after = await removeStage(t.db, ws.actor, { id: p.id, stageId: a.id, moveDealsTo: b.id });
    expect(names(after)).toEqual(['B']);
    const summary = await summarizePipeline(t.db, ws.actor, p.id);
    expect(summary.stages.map((s) => [s.name, s.count])).toEqual([['B', 2]]);

    const events = (await dealEvents(ws.actor.workspaceId)).slice(2);
    expect(events.map((e) => [e.type, e.payload.dealId]).sort()).toEqual(
      [
        ['deal.stage_changed', one.id],
        ['deal.stage_changed', two.id],
        ['deal.updated', one.id],
        ['deal.updated', two.id],
      ].sort(),
    );
    for (const event of events.filter((e) => e.type === 'deal.stage_changed')) {
      expect(event.payload).toMatchObject({ pipelineId: p.id, fromStageId: a.id, toStageId: b.id });
    }
    for (const event of events.filter((e) => e.type === 'deal.updated')) {
      expect(event.payload).toMatchObject({ changedFields: ['stageId'], previous: { stageId: a.id } });
    }
    // The removed stage is gone for deal writes too.
    await expectDomainError(updateDeal(t.db, ws.actor, { id: one.id, stageId: a.id }), 'VALIDATION_FAILED');
  });
});

describe('pipelines of another workspace', () => {
  it('are not found, not listed and not changed', async () => {
    const ours = await newWorkspace(t.db, 'Ours');
    const theirs = await newWorkspace(t.db, 'Theirs');
    const p = await createPipeline(t.db, theirs.actor, { name: 'Secret', stages: ['A', 'B'] });
    const stageId = p.stages[0]!.id;
    await expectDomainError(getPipeline(t.db, ours.actor, p.id), 'NOT_FOUND');
    await expectDomainError(summarizePipeline(t.db, ours.actor, p.id), 'NOT_FOUND');
    await expectDomainError(renamePipeline(t.db, ours.actor, { id: p.id, name: 'Mine' }), 'NOT_FOUND');
    await expectDomainError(addStage(t.db, ours.actor, { id: p.id, name: 'C' }), 'NOT_FOUND');
    await expectDomainError(renameStage(t.db, ours.actor, { id: p.id, stageId, name: 'Z' }), 'NOT_FOUND');
    await expectDomainError(
      reorderStages(t.db, ours.actor, { id: p.id, stageIds: p.stages.map((s) => s.id).reverse() }),
      'NOT_FOUND',
    );
    await expectDomainError(removeStage(t.db, ours.actor, { id: p.id, stageId }), 'NOT_FOUND');
    expect((await findPipelines(t.db, ours.actor, {})).data.map((x) => x.id)).not.toContain(p.id);
    expect(await getPipeline(t.db, theirs.actor, p.id)).toEqual(p);
  });
});
