import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rightsOf } from '../api-keys/scopes.ts';
import { createDeal } from '../deals/create-deal.ts';
import { createFolder } from '../folders/create-folder.ts';
import { createPipeline } from '../pipelines/create-pipeline.ts';
import { createRecord } from '../records/create-record.ts';
import { linkRecord } from '../relations/link-record.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  seededRandom,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';
import { createSavedView } from '../views/create-saved-view.ts';
import { createWebhook } from '../webhooks/create-webhook.ts';
import { createWorkflow } from '../workflows/create-workflow.ts';
import { createWorkspace } from '../workspaces/create-workspace.ts';
import { applyConfig } from './apply-config.ts';
import { getConfig } from './get-config.ts';
import { planConfig } from './plan-config.ts';
import type { ConfigDocument } from './schemas.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const services = { baseUrl: 'http://crm.test', checkOutboundUrl: async () => {} };

/** A second workspace of the same owner: empty but for its default folder and pipeline. */
async function sibling(ws: TestWorkspace): Promise<TestWorkspace> {
  const [owner] = await t.query<{ email: string }>('select email from users where id = $1', [
    ws.actor.userId,
  ]);
  const made = await createWorkspace(t.db, {
    name: 'Sibling',
    owner: { email: owner?.email ?? '', name: 'Owner' },
  });
  const [people] = await t.query<{ id: string }>('select id from folders where workspace_id = $1', [
    made.workspaceId,
  ]);
  return {
    actor: { ...ws.actor, workspaceId: made.workspaceId, role: 'OWNER', scopes: rightsOf('OWNER') },
    peopleFolderId: people?.id ?? '',
  };
}

/** A workspace with one of everything the document holds, ids inside workflows included. */
async function richWorkspace() {
  const ws = await newWorkspace(t.db);
  const a = ws.actor;
  const companies = await createFolder(t.db, a, {
    name: 'Companies',
    fields: [
      { key: 'tier', label: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] },
      { key: 'notes', label: 'Notes', type: 'TEXT' },
    ],
  });
  await createFolder(t.db, a, {
    name: 'Leads',
    fields: [
      { key: 'score', label: 'Score', type: 'NUMBER' },
      {
        key: 'account',
        label: 'Account',
        type: 'RELATION',
        relation: { folderId: companies.id, cardinality: 'ONE', labels: ['Billing', 'Decision maker'] },
        inverse: { key: 'leads', label: 'Leads', cardinality: 'MANY' },
      },
    ],
  });
  const hiring = await createPipeline(t.db, a, { name: 'Hiring', stages: ['Applied', 'Interview', 'Offer'] });
  const offer = hiring.stages[2]?.id ?? '';
  await createWorkflow(
    t.db,
    a,
    {
      name: 'Inbound lead',
      trigger: { type: 'INCOMING_WEBHOOK' },
      requireSignature: true,
      notifyOnFailure: [a.userId],
      actions: [
        {
          type: 'CREATE_RECORD',
          folderId: ws.peopleFolderId,
          title: '{{ trigger.body.name }}',
          ownerId: a.userId,
        },
        { type: 'CREATE_DEAL', pipelineId: hiring.id, stageId: offer, title: 'Hire' },
        {
          type: 'BRANCH',
          if: { left: '{{ trigger.body.vip }}', operator: 'EQUALS', right: true },
          then: [{ type: 'CREATE_TASK', title: 'Call', assigneeId: a.userId }],
          else: [{ type: 'ADD_COMMENT', text: 'not vip' }],
        },
        {
          type: 'FOR_EACH',
          records: { folderId: companies.id, q: 'acme' },
          actions: [{ type: 'ADD_COMMENT', text: '{{ item.title }}' }],
        },
      ],
    },
    services,
  );
  await createWorkflow(
    t.db,
    a,
    {
      name: 'Monday digest',
      enabled: false,
      trigger: { type: 'SCHEDULE', cron: '0 9 * * 1', timezone: 'Europe/Paris' },
      rateLimitPerMinute: 60,
      actions: [{ type: 'HTTP_REQUEST', url: 'https://hooks.example.com/digest' }],
    },
    services,
  );
  await createWebhook(
    t.db,
    a,
    {
      url: 'https://hooks.example.com/crm',
      events: ['record.updated'],
      fields: ['title'],
      description: 'sync',
    },
    services,
  );
  await createSavedView(t.db, a, {
    folderId: companies.id,
    name: 'Gold',
    definition: {
      columns: ['title', 'data.tier'],
      sort: '-createdAt',
      filters: [{ field: 'data.tier', op: 'eq', value: 'Gold' }],
    },
  });
  return ws;
}

const auditCount = async (workspaceId: string) =>
  Number(
    (
      await t.query<{ n: string }>(
        "select count(*) as n from audit_log where workspace_id = $1 and action = 'config.applied'",
        [workspaceId],
      )
    )[0]?.n,
  );

describe('configuration as code', () => {
  it('round trip: export, apply to an empty workspace, export again gives the same document', async () => {
    const source = await richWorkspace();
    const document = await getConfig(t.db, source.actor);
    // Names, not ids: nothing of the source workspace's ids is in the document.
    expect(JSON.stringify(document)).not.toMatch(/"(fld|pl|st|usr|wf|wh)_[0-9a-z]{20,}"/);
    expect(document.workflows[0]?.actions[0]).toMatchObject({ folderId: { $folder: 'People' } });

    const target = await sibling(source);
    const applied = await applyConfig(t.db, target.actor, { document }, services);
    expect(applied.changes.map((c) => `${c.op} ${c.kind} ${c.key}`)).toEqual(
      expect.arrayContaining([
        'create folder Companies',
        'create folder Leads',
        'create field Leads.account',
        'create field Companies.leads',
        'create pipeline Hiring',
        'create workflow Inbound lead',
        'create webhook https://hooks.example.com/crm',
        'create view Companies/Gold',
      ]),
    );
    // The secrets of what it made, once.
    expect(applied.secrets.map((s) => `${s.kind} ${s.key}`).sort()).toEqual([
      'webhook https://hooks.example.com/crm',
      'workflow Inbound lead',
    ]);
    const again = await getConfig(t.db, target.actor);
    expect(canonicalJson(again)).toBe(canonicalJson(document));
    expect(JSON.stringify(again)).toBe(JSON.stringify(document));

    // Idempotent: the second apply changes nothing and writes no audit entry.
    const audited = await auditCount(target.actor.workspaceId);
    expect(audited).toBe(1);
    const second = await applyConfig(t.db, target.actor, { document, prune: true }, services);
    expect(second.changes).toEqual([]);
    expect(await auditCount(target.actor.workspaceId)).toBe(1);
    expect(canonicalJson(await getConfig(t.db, target.actor))).toBe(canonicalJson(document));
  });

  it('a plan shows every change and what removals do to data; nothing is written', async () => {
    const ws = await richWorkspace();
    const a = ws.actor;
    const document = await getConfig(t.db, a);
    const [companies] = await t.query<{ id: string }>(
      "select id from folders where workspace_id = $1 and name = 'Companies'",
      [a.workspaceId],
    );
    const [leads] = await t.query<{ id: string }>(
      "select id from folders where workspace_id = $1 and name = 'Leads'",
      [a.workspaceId],
    );
    const { record: acme } = await createRecord(t.db, a, {
      folderId: companies?.id ?? '',
      title: 'Acme',
      data: { tier: 'Gold' },
    });
    const { record: lead } = await createRecord(t.db, a, {
      folderId: leads?.id ?? '',
      title: 'Ada',
      data: { score: 3 },
    });
    await linkRecord(t.db, a, { id: lead.id, field: 'account', to: acme.id });
    const hiring = document.pipelines.find((p) => p.name === 'Hiring');
    const [interview] = await t.query<{ id: string; pipeline_id: string }>(
      "select id, pipeline_id from stages where workspace_id = $1 and name = 'Interview'",
      [a.workspaceId],
    );
    await createDeal(t.db, a, {
      pipelineId: interview?.pipeline_id ?? '',
      stageId: interview?.id ?? '',
      title: 'Bob',
    });

    const smaller: ConfigDocument = {
      ...document,
      folders: document.folders.map((f) =>
        f.name === 'Companies'
          ? { ...f, fields: f.fields.filter((x) => x.key === 'notes') }
          : f.name === 'Leads'
            ? { ...f, fields: f.fields.filter((x) => x.key === 'score') }
            : f,
      ),
      pipelines: document.pipelines.map((p) =>
        p === hiring ? { ...p, stages: ['Offer', 'Applied', 'Screening'] } : p,
      ),
      workflows: document.workflows.filter((w) => w.name !== 'Monday digest'),
      webhooks: [],
    };
    const kept = await planConfig(t.db, a, { document: smaller }, services);
    expect(kept.changes.filter((c) => c.op === 'remove')).toEqual([]);
    expect(kept.left.map((l) => `${l.kind} ${l.key}`)).toEqual(
      expect.arrayContaining([
        'field Companies.tier',
        'field Leads.account',
        'stage Hiring/Interview',
        'workflow Monday digest',
      ]),
    );

    const pruned = await planConfig(t.db, a, { document: smaller, prune: true }, services);
    const byKey = new Map(pruned.changes.map((c) => [`${c.op} ${c.kind} ${c.key}`, c]));
    expect(byKey.get('remove field Companies.tier')?.cascade).toEqual(['1 record(s) lose their tier value']);
    const account = byKey.get('remove field Leads.account') ?? byKey.get('remove field Companies.leads');
    expect(account?.cascade).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^1 link\(s\) removed/),
        expect.stringMatching(/its pair/),
      ]),
    );
    expect(byKey.get('remove stage Hiring/Interview')?.cascade).toEqual(['1 deal(s) move to Hiring/Offer']);
    expect(byKey.has('create stage Hiring/Screening')).toBe(true);
    expect(byKey.has('update pipeline Hiring')).toBe(true);
    expect(byKey.has('remove workflow Monday digest')).toBe(true);
    expect(byKey.has('remove webhook https://hooks.example.com/crm')).toBe(true);
    // Nothing was written by either plan.
    expect(canonicalJson(await getConfig(t.db, a))).toBe(canonicalJson(document));

    const applied = await applyConfig(t.db, a, { document: smaller, prune: true }, services);
    expect(applied.changes).toEqual(pruned.changes);
    expect(canonicalJson(await getConfig(t.db, a))).toBe(canonicalJson(smaller));
    const [moved] = await t.query<{ name: string }>(
      'select s.name from deals d join stages s on s.workspace_id = d.workspace_id and s.id = d.stage_id where d.workspace_id = $1',
      [a.workspaceId],
    );
    expect(moved?.name).toBe('Offer');
  });

  it('all or nothing: a change refused halfway leaves the workspace as it was', async () => {
    const ws = await newWorkspace(t.db);
    const a = ws.actor;
    const folder = await createFolder(t.db, a, {
      name: 'Deals desk',
      fields: [{ key: 'size', label: 'Size', type: 'TEXT' }],
    });
    await createRecord(t.db, a, { folderId: folder.id, title: 'x', data: { size: 'large' } });
    const before = await getConfig(t.db, a);
    const document: ConfigDocument = {
      ...before,
      folders: [
        { name: 'Brand new', fields: [{ key: 'a', label: 'A', type: 'TEXT' }] },
        ...before.folders.map((f) =>
          f.name === 'Deals desk'
            ? { ...f, fields: [{ key: 'size', label: 'Size', type: 'NUMBER' as const }] }
            : f,
        ),
      ],
      pipelines: [...before.pipelines, { name: 'Also new', stages: ['One'] }],
    };
    const error = await expectDomainError(applyConfig(t.db, a, { document }, services), 'VALIDATION_FAILED');
    const index = document.folders.findIndex((f) => f.name === 'Deals desk');
    expect(error.details?.[0]?.path).toBe(`document.folders.${index}.fields.0.size`);
    expect(error.message).toMatch(/would not be valid as NUMBER/);
    expect(canonicalJson(await getConfig(t.db, a))).toBe(canonicalJson(before));
    expect(await auditCount(a.workspaceId)).toBe(0);
  });

  it('names each problem of a document, and applies nothing', async () => {
    const ws = await newWorkspace(t.db);
    const a = ws.actor;
    const base = await getConfig(t.db, a);
    const document: ConfigDocument = {
      ...base,
      folders: [
        ...base.folders,
        { name: 'People', fields: [] },
        {
          name: 'Deals',
          fields: [
            { key: '1bad', label: 'x', type: 'TEXT' },
            { key: 'kind', label: 'Kind', type: 'SELECT' },
          ],
        },
      ],
      workflows: [
        {
          name: 'w',
          enabled: true,
          trigger: { type: 'INCOMING_WEBHOOK' },
          actions: [
            { type: 'CREATE_RECORD', folderId: { $folder: 'Nowhere' }, title: 't' },
            { type: 'ASSIGN_OWNER', ownerId: { $user: 'stranger@example.com' } },
          ],
          requireSignature: false,
          rateLimitPerMinute: 600,
          notifyOnFailure: [],
        },
      ],
      webhooks: [
        {
          url: 'https://x.example.com',
          events: ['record.created'],
          fields: [],
          headers: { Authorization: 'Be…' },
          description: '',
          enabled: true,
        },
      ],
    };
    const error = await expectDomainError(planConfig(t.db, a, { document }, services), 'VALIDATION_FAILED');
    const paths = error.details?.map((d) => d.path) ?? [];
    expect(paths).toEqual(
      expect.arrayContaining([
        `document.folders.${base.folders.length}.name`,
        `document.folders.${base.folders.length + 1}.fields.0.key`,
        `document.folders.${base.folders.length + 1}.fields.1.options`,
        'document.workflows.0.actions.0.folderId',
        'document.workflows.0.actions.1.ownerId',
        'document.webhooks.0.headers.Authorization',
      ]),
    );
    expect(new Set(paths).size).toBe(paths.length);
    await expectDomainError(applyConfig(t.db, a, { document }, services), 'VALIDATION_FAILED');
    expect(canonicalJson(await getConfig(t.db, a))).toBe(canonicalJson(base));
  });

  it('on random documents: apply then export gives the document back, and a second apply changes nothing', async () => {
    const seed = Number(process.env.CONFIG_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const types = ['TEXT', 'SELECT', 'NUMBER', 'BOOLEAN', 'DATE', 'EMAIL', 'URL', 'MULTI_SELECT'] as const;
    const ws = await newWorkspace(t.db);
    try {
      for (let round = 0; round < 6; round++) {
        const base = await getConfig(t.db, ws.actor);
        const folderNames = [
          ...new Set(
            Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
              pick(['People', 'Ácme', 'Zeta', 'alpha', 'Bä', 'z 2']),
            ),
          ),
        ];
        const folders = folderNames.map((name) => ({
          name,
          fields: [
            ...new Set(
              Array.from({ length: Math.floor(random() * 5) }, () => pick(['a', 'b', 'c', 'd_1', 'e'])),
            ).values(),
          ].map((key) => {
            const type = pick(types);
            return {
              key,
              label: pick(['Label', 'Ä label', key]),
              type,
              ...(type === 'SELECT' || type === 'MULTI_SELECT'
                ? { options: pick([['x'], ['x', 'y'], ['y', 'x', 'z']]) }
                : {}),
            };
          }),
        }));
        const pipelines = [
          ...base.pipelines.filter(() => random() < 0.5),
          ...(random() < 0.7
            ? [{ name: pick(['Sales', 'Hiring', 'Ops']), stages: pick([['A'], ['A', 'B'], ['B', 'C', 'A']]) }]
            : []),
        ].filter((p, i, all) => all.findIndex((q) => q.name === p.name) === i);
        const document: ConfigDocument = { ...base, folders, pipelines };
        // Types only change where stored values allow: no records here, so any change is allowed.
        await applyConfig(t.db, ws.actor, { document, prune: true }, services);
        const exported = await getConfig(t.db, ws.actor);
        const sorted = (d: ConfigDocument) => ({
          ...d,
          folders: [...d.folders].sort((x, y) => (x.name < y.name ? -1 : 1)),
          pipelines: [...d.pipelines].sort((x, y) => (x.name < y.name ? -1 : 1)),
        });
        // Folders and pipelines are never removed: those the document left out stay.
        expect(
          canonicalJson(
            sorted({
              ...exported,
              folders: exported.folders.filter((f) => folderNames.includes(f.name)),
              pipelines: exported.pipelines.filter((p) => pipelines.some((q) => q.name === p.name)),
            }),
          ),
        ).toBe(canonicalJson(sorted(document)));
        const second = await applyConfig(t.db, ws.actor, { document: exported, prune: true }, services);
        expect(second.changes).toEqual([]);
      }
    } catch (error) {
      throw new Error(
        `failed with CONFIG_SEED=${seed}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  });

  it('answers hostile documents with 400s naming the problem, never anything else, and changes nothing', async () => {
    const source = await richWorkspace();
    const valid = await getConfig(t.db, source.actor);
    const target = await sibling(source);
    const before = canonicalJson(await getConfig(t.db, target.actor));
    const seed = Number(process.env.CONFIG_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const oddValues: unknown[] = [
      null,
      '',
      ' ',
      'x'.repeat(5000),
      -1,
      1.5,
      true,
      [],
      {},
      { $folder: 'Nowhere' },
      { $stage: ['Hiring'] },
      { $user: 42 },
      { $pipeline: 'Hiring', extra: 1 },
      '{{ steps.9.output.id }}',
      '\u0000',
    ];
    /** Replaces one value somewhere in the document (an object's value or a list's item). */
    const mutate = (value: unknown, depth: number): unknown => {
      if (value === null || typeof value !== 'object')
        return oddValues[Math.floor(random() * oddValues.length)];
      if (Array.isArray(value)) {
        if (value.length === 0 || random() < 0.2)
          return [...value, oddValues[Math.floor(random() * oddValues.length)]];
        const i = Math.floor(random() * value.length);
        return value.map((item, j) => (j === i ? mutate(item, depth + 1) : item));
      }
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0 || random() < 0.1) return { ...value, surprise: 1 };
      const i = Math.floor(random() * entries.length);
      return Object.fromEntries(
        entries.map(([k, v], j) => [
          k,
          j === i
            ? depth > 6 || random() < 0.3
              ? oddValues[Math.floor(random() * oddValues.length)]
              : mutate(v, depth + 1)
            : v,
        ]),
      );
    };
    const { configDocument } = await import('./schemas.ts');
    for (let round = 0; round < 60; round++) {
      const document = mutate(valid, 0);
      const parsed = configDocument.safeParse(document);
      // The API's input checks answer these (a 400) before the domain sees them: the schema,
      // and text PostgreSQL cannot store (a NUL; docs/api.md, "Limits of input").
      if (!parsed.success || JSON.stringify(document).includes('\\u0000')) continue;
      const prune = random() < 0.5;
      const planned = await planConfig(t.db, target.actor, { document: parsed.data, prune }, services).then(
        () => null,
        (error: unknown) => error,
      );
      const atStart = canonicalJson(await getConfig(t.db, target.actor));
      const applied = await applyConfig(t.db, target.actor, { document: parsed.data, prune }, services).then(
        () => null,
        (error: unknown) => error,
      );
      for (const outcome of [planned, applied]) {
        if (outcome === null) continue;
        const code = (outcome as { code?: string }).code;
        expect(
          ['VALIDATION_FAILED', 'CONFLICT'],
          `CONFIG_SEED=${seed} round ${round}: ${String(outcome)}`,
        ).toContain(code);
      }
      // A refused apply changed nothing.
      if (applied !== null) expect(canonicalJson(await getConfig(t.db, target.actor))).toBe(atStart);
      // Whatever was applied is rolled back for the next round.
      await applyConfig(
        t.db,
        target.actor,
        { document: JSON.parse(before) as ConfigDocument, prune: true },
        services,
      ).catch(() => {});
    }
  });
});
