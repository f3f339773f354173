import { DomainError } from '@crm/domain';
import { z } from 'zod';
import { fittingPage } from '../answer.ts';
import {
  ADDS,
  type Caller,
  item,
  listOutput,
  paging,
  READS,
  REMOVES,
  SETS,
  type ToolContext,
  tool,
} from '../tool.ts';

/** Items a list tool returns when the agent names no limit. */
export const DEFAULT_LIMIT = 20;
/** What `get_record` shows of each part around the record (MANY links, deals, tasks, timeline). */
const AROUND = 10;

const recordId = z.string().max(200).describe('Record id (rec_…).');
const data = z
  .record(z.string(), z.unknown())
  .describe(
    'Custom field values by field key (describe_workspace lists them). A ONE relation takes a record id; null clears a value.',
  );

/** The `filter` argument: field → value, or field → { op: value } (docs/api.md, "Filters"). */
const filter = z
  .record(
    z.string().max(200),
    z.union([
      z.string().max(10_000),
      z.number(),
      z.boolean(),
      z.record(z.string().max(20), z.string().max(10_000)),
    ]),
  )
  .describe(
    'Conditions, all of which must hold: { "data.tier": "Gold" } or { "data.score": { "gte": "50" } }. Ops: eq, ne, in (comma-separated), gt, gte, lt, lte, contains, empty. Across a ONE relation: { "company.title": { "contains": "Acme" } }.',
  );

export const searchRecords = tool({
  name: 'search_records',
  title: 'Search records',
  description:
    'Find records (people, companies, anything kept in folders) by text, folder and field conditions. Newest first unless `sort` says otherwise.',
  scopes: ['records:read'],
  annotations: READS,
  input: z.strictObject({
    query: z.string().max(200).optional().describe('Text in the title, email, phone or a TEXT value.'),
    folderId: z.string().max(200).optional().describe('Only records of this folder (fld_…).'),
    filter: filter.optional(),
    sort: z
      .string()
      .max(200)
      .optional()
      .describe('createdAt, updatedAt, title or data.<key>; a leading - for descending. Default -createdAt.'),
    count: z.boolean().optional().describe('Also return `total`, the number of records that match.'),
    ...paging,
  }),
  output: listOutput('records').extend({ total: z.number().optional() }),
  async run(caller, input) {
    const page = await fittingPage(input.limit ?? DEFAULT_LIMIT, async (limit) => {
      const { data: records, meta } = await caller.records.list({
        ...(input.query ? { q: input.query } : {}),
        ...(input.folderId ? { folderId: input.folderId } : {}),
        ...(input.filter ? { filter: input.filter } : {}),
        ...(input.sort ? { sort: input.sort } : {}),
        ...(input.count ? { count: 'true' as const } : {}),
        ...(input.cursor ? { cursor: input.cursor } : {}),
        pageSize: limit,
      });
      return {
        records,
        nextCursor: meta.nextCursor ?? null,
        ...(meta.total !== undefined ? { total: meta.total } : {}),
      };
    });
    return page;
  },
});

export const getRecord = tool({
  name: 'get_record',
  title: 'Get a record',
  description:
    'One record with what is around it: the records its relation fields link to, its open deals and tasks, and its latest timeline entries (changes with who made them, comments, calls).',
  scopes: ['records:read'],
  annotations: READS,
  input: z.strictObject({ id: recordId }),
  output: z.object({
    record: item,
    related: z
      .record(z.string(), z.array(item))
      .describe('MANY relation fields: their first linked records.'),
    deals: z.array(item).optional(),
    tasks: z.array(item).optional(),
    timeline: z.array(item),
  }),
  async run(caller, { id }, { scopes }) {
    const { data: plain } = await caller.records.get({ id });
    const fields = scopes.has('folders:read') ? await relationFields(caller, plain.folderId) : [];
    const one = fields.filter((f) => f.relation?.cardinality === 'ONE').map((f) => f.key);
    const many = fields.filter((f) => f.relation?.cardinality === 'MANY').map((f) => f.key);
    const record = one.length
      ? (await caller.records.get({ id, expand: one.slice(0, 5).join(',') })).data
      : plain;
    const related: Record<string, Record<string, unknown>[]> = {};
    for (const field of many) {
      related[field] = (await caller.records.related({ id, field, pageSize: AROUND })).data;
    }
    const timeline = (await caller.records.timeline({ id, pageSize: AROUND })).data;
    return {
      record,
      related,
      ...(scopes.has('deals:read')
        ? { deals: (await caller.records.deals({ id, pageSize: AROUND })).data }
        : {}),
      ...(scopes.has('tasks:read')
        ? { tasks: (await caller.records.tasks({ id, status: 'OPEN', pageSize: AROUND })).data }
        : {}),
      timeline,
    };
  },
});

type FieldDefinition = Awaited<ReturnType<Caller['folders']['get']>>['data']['fields'][number];

async function relationFields(caller: Caller, folderId: string): Promise<FieldDefinition[]> {
  const { data: folder } = await caller.folders.get({ id: folderId });
  return folder.fields.filter((f) => f.type === 'RELATION');
}

/**
 * `work` on the RELATION field `field` of record `id`. The procedures refuse a key that is not
 * one by naming the folder only (a 404 where the key is in the path), so when `work` fails and
 * the key is not one of the folder's RELATION fields, the refusal lists those that are
 * (docs/mcp.md, "Answers and errors"). A caller that may not read folders gets the refusal as
 * it was.
 */
async function onRelationField<T>(
  caller: Caller,
  { scopes }: ToolContext,
  id: string,
  field: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!scopes.has('folders:read')) throw error;
    throw (await notARelationField(caller, id, field)) ?? error;
  }
}

/** The refusal of `key` as a field to link through, listing the RELATION fields of record `id`'s folder. */
async function notARelationField(caller: Caller, id: string, key: string): Promise<DomainError | null> {
  const folder = await caller.records
    .get({ id })
    .then(({ data }) => caller.folders.get({ id: data.folderId }))
    .then(({ data }) => data)
    // The record or its folder cannot be read: the first refusal is the one to answer.
    .catch(() => null);
  if (!folder) return null;
  const relations = folder.fields.filter((f) => f.type === 'RELATION').map((f) => f.key);
  if (relations.includes(key)) return null;
  return new DomainError('VALIDATION_FAILED', `${key} is not a RELATION field of folder ${folder.name}`, {
    details: [
      {
        path: 'field',
        message: relations.length
          ? `one of: ${relations.join(', ')}`
          : `folder ${folder.name} has no RELATION field; describe_workspace lists each folder's fields`,
      },
    ],
  });
}

export const createRecord = tool({
  name: 'create_record',
  title: 'Create a record',
  description:
    'Add a record to a folder. With `upsertByEmail`, the live record of the folder with that email is updated instead.',
  scopes: ['records:write'],
  annotations: ADDS,
  input: z.strictObject({
    folderId: z.string().max(200).describe('The folder (fld_…) to hold it.'),
    title: z.string().min(1).max(500).describe('Its name, 1 to 500 characters.'),
    email: z.string().max(320).optional(),
    phone: z.string().max(64).optional(),
    data: data.optional(),
    upsertByEmail: z.boolean().optional().describe('Update the record with the same email, if there is one.'),
  }),
  output: z.object({ record: item, created: z.boolean() }),
  async run(caller, { upsertByEmail, ...input }, { response }) {
    const { data: record } = await caller.records.create({
      ...input,
      ...(upsertByEmail ? { upsert: 'email' } : {}),
    });
    // The procedure answers 200 rather than 201 when it updated a record with the same email.
    return { record, created: response.status === 201 };
  },
});

export const updateRecord = tool({
  name: 'update_record',
  title: 'Update a record',
  description: 'Change a record. Only the fields given change; `data` merges (a key set to null is removed).',
  scopes: ['records:write'],
  annotations: SETS,
  input: z.strictObject({
    id: recordId,
    title: z.string().min(1).max(500).optional(),
    email: z.string().max(320).nullable().optional(),
    phone: z.string().max(64).nullable().optional(),
    data: data.optional(),
  }),
  output: z.object({ record: item }),
  async run(caller, input) {
    return { record: (await caller.records.update(input)).data };
  },
});

export const trashRecord = tool({
  name: 'trash_record',
  title: 'Move a record to Trash',
  description: 'Move a record to Trash. It can be restored in the web app for 30 days, then it is purged.',
  scopes: ['records:delete'],
  annotations: REMOVES,
  input: z.strictObject({ id: recordId }),
  output: z.object({ record: item }),
  async run(caller, { id }) {
    return { record: (await caller.records.trash({ id })).data };
  },
});

export const linkRecords = tool({
  name: 'link_records',
  title: 'Link or unlink records',
  description:
    "Link a record to another through one of its folder's RELATION fields (describe_workspace lists them), or remove that link with `unlink`. The inverse field, if any, follows.",
  scopes: ['records:write'],
  annotations: SETS,
  input: z.strictObject({
    id: recordId,
    field: z.string().max(100).describe('Key of a RELATION field of the record’s folder.'),
    to: z
      .string()
      .max(500)
      .describe(
        'The other record: its id (rec_…), or its email or exact title in the field’s target folder.',
      ),
    label: z.string().max(100).optional().describe('One of the field’s labels, if it has any.'),
    unlink: z.boolean().optional().describe('Remove the link instead of adding it.'),
  }),
  output: z.object({ linked: z.boolean(), link: item.optional() }),
  run(caller, { id, field, to, label, unlink }, context) {
    return onRelationField(caller, context, id, field, async () => {
      if (unlink) {
        const target = to.startsWith('rec_') ? to : await findTarget(caller, id, field, to);
        await caller.records.unlink({ id, field, to: target });
        return { linked: false };
      }
      const named = to.startsWith('rec_') ? to : to.includes('@') ? { email: to } : { title: to };
      const { data: link } = await caller.records.link({ id, field, to: named, ...(label ? { label } : {}) });
      return { linked: true, link };
    });
  },
});

/** The id of the record linked through `field` whose email or title is `name`. */
async function findTarget(caller: Caller, id: string, field: string, name: string): Promise<string> {
  const by = name.includes('@') ? 'email' : 'title';
  const { data } = await caller.records.related({ id, field, filter: { [by]: name }, pageSize: 2 });
  const [first] = data;
  // No such link: unlinking changes nothing, as it does for an id that is not linked.
  return first?.id ?? name;
}

export const listRelated = tool({
  name: 'list_related',
  title: 'List related records',
  description:
    'The records linked to a record through one of its RELATION fields, newest link first, with a cursor.',
  scopes: ['records:read'],
  annotations: READS,
  input: z.strictObject({
    id: recordId,
    field: z.string().max(100).describe('Key of a RELATION field of the record’s folder.'),
    query: z.string().max(200).optional().describe('Only linked records with this text.'),
    ...paging,
  }),
  output: listOutput('records'),
  run(caller, input, context) {
    return onRelationField(caller, context, input.id, input.field, () =>
      fittingPage(input.limit ?? DEFAULT_LIMIT, async (limit) => {
        const { data: records, meta } = await caller.records.related({
          id: input.id,
          field: input.field,
          ...(input.query ? { q: input.query } : {}),
          ...(input.cursor ? { cursor: input.cursor } : {}),
          pageSize: limit,
        });
        return { records, nextCursor: meta.nextCursor ?? null };
      }),
    );
  },
});

export const recordHistory = tool({
  name: 'record_history',
  title: 'Field history',
  description:
    'Every change of a record, deal or task, newest first: the field, from and to, who made it (user, API key, workflow, import, agent) and through what.',
  scopes: ['records:read', 'deals:read', 'tasks:read'],
  anyScope: true,
  annotations: READS,
  input: z.strictObject({
    id: z.string().max(200).describe('Id of a record (rec_…), deal (deal_…) or task (task_…).'),
    field: z
      .string()
      .max(200)
      .optional()
      .describe('Only changes of this field (title, data.tier, stageId …).'),
    ...paging,
  }),
  output: listOutput('changes'),
  async run(caller, input) {
    const history = input.id.startsWith('deal_')
      ? caller.deals.history
      : input.id.startsWith('task_')
        ? caller.tasks.history
        : caller.records.history;
    return fittingPage(input.limit ?? DEFAULT_LIMIT, async (limit) => {
      const { data: changes, meta } = await history({
        id: input.id,
        ...(input.field ? { field: input.field } : {}),
        ...(input.cursor ? { cursor: input.cursor } : {}),
        pageSize: limit,
      });
      return { changes, nextCursor: meta.nextCursor ?? null };
    });
  },
});
