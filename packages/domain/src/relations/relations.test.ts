import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import { addFolderField, removeFolderField } from '../folders/index.ts';
import { loadFolder } from '../folders/load-folder.ts';
import { createRecord } from '../records/create-record.ts';
import { createRecords } from '../records/create-records.ts';
import { findRecords } from '../records/find-records.ts';
import { findRelated } from '../records/find-related.ts';
import { getRecord } from '../records/get-record.ts';
import { purgeTrash } from '../records/purge-trash.ts';
import { recordFields } from '../records/record-fields.ts';
import { restoreRecord } from '../records/restore-record.ts';
import { trashRecord } from '../records/trash-record.ts';
import { updateRecord } from '../records/update-record.ts';
import type { Actor } from '../shared/actor.ts';
import type { DomainError } from '../shared/errors.ts';
import { fieldsOf, treeFromParam } from '../shared/list-filter.ts';
import { filterSql } from '../shared/list-query.ts';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';
import { MAX_LINKS_PER_FIELD } from './apply-link-changes.ts';
import { getLink } from './get-link.ts';
import { linkRecord } from './link-record.ts';
import { linkRecords } from './link-records.ts';
import { attachLinkTallies, LinkTallies, TALLY_MARGIN } from './link-tallies.ts';
import { unlinkRecord } from './unlink-record.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

/** A workspace with Companies and People related: People.company (ONE) ↔ Companies.people (MANY). */
async function companiesAndPeople(options: { labels?: string[] } = {}) {
  const ws = await newWorkspace(t.db);
  const companies = await createFolder(t.db, ws.actor, {
    name: 'Companies',
    fields: [{ key: 'tier', label: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] }],
  });
  await addFolderField(t.db, ws.actor, {
    id: ws.peopleFolderId,
    key: 'employer',
    label: 'Employer',
    type: 'RELATION',
    relation: {
      folderId: companies.id,
      cardinality: 'ONE',
      ...(options.labels ? { labels: options.labels } : {}),
    },
    inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
  });
  const company = async (title: string, tier = 'Gold') =>
    (await createRecord(t.db, ws.actor, { folderId: companies.id, title, data: { tier } })).record;
  const person = async (title: string, data: Record<string, unknown> = {}, email?: string) =>
    (
      await createRecord(t.db, ws.actor, {
        folderId: ws.peopleFolderId,
        title,
        data,
        ...(email ? { email } : {}),
      })
    ).record;
  return { ws, actor: ws.actor, companies: companies.id, people: ws.peopleFolderId, company, person };
}

async function linksOf(ws: TestWorkspace) {
  return t.query<{ from_id: string; to_id: string; label: string | null }>(
    'select from_id, to_id, label from record_links where workspace_id = $1 order by created_at, from_id',
    [ws.actor.workspaceId],
  );
}

async function eventsOf(actor: Actor, type: string) {
  return (
    await t.query<{ payload: Record<string, unknown> }>(
      'select payload from events where workspace_id = $1 and type = $2 order by occurred_at, id',
      [actor.workspaceId, type],
    )
  ).map((r) => r.payload);
}

describe('ONE values in data', () => {
  it('link by id, email or title on create, and show on both sides', async () => {
    const { ws, actor, company, person, companies } = await companiesAndPeople();
    const acme = await company('Acme');
    const ada = await person('Ada', { employer: acme.id });
    expect(ada.data.employer).toBe(acme.id);
    const byTitle = await person('Grace', { employer: { title: 'Acme' } });
    expect(byTitle.data.employer).toBe(acme.id);
    const related = await findRelated(t.db, actor, { id: acme.id, field: 'people', sort: 'title' });
    expect(related.data.map((r) => [r.title, r.link.label])).toEqual([
      ['Ada', null],
      ['Grace', null],
    ]);
    expect(await linksOf(ws)).toHaveLength(2);
    const linked = await eventsOf(actor, 'record.linked');
    expect(linked).toHaveLength(2);
    expect(linked[0]).toMatchObject({ from: ada.id, field: 'employer', to: acme.id, inverseField: 'people' });
    await createRecord(t.db, actor, { folderId: companies, title: 'Acme', data: { tier: 'Silver' } });
    const twice = await expectDomainError(
      person('Alan', { employer: { title: 'Acme' } }),
      'VALIDATION_FAILED',
    );
    expect(twice.details).toEqual([
      { path: 'data.employer', message: expect.stringMatching(/several live records/) },
    ]);
    const none = await expectDomainError(
      person('Alan', { employer: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
      'VALIDATION_FAILED',
    );
    expect(none.details?.[0]?.path).toBe('data.employer');
  });

  it('a PATCH replaces the link, and null clears it, with record.updated, unlinked and linked', async () => {
    const { ws, actor, company, person } = await companiesAndPeople();
    const acme = await company('Acme');
    const globex = await company('Globex');
    const ada = await person('Ada', { employer: acme.id });
    const moved = await updateRecord(t.db, actor, { id: ada.id, data: { employer: globex.id } });
    expect(moved.data.employer).toBe(globex.id);
    expect((await linksOf(ws)).map((l) => l.to_id)).toEqual([globex.id]);
    const updated = await eventsOf(actor, 'record.updated');
    expect(updated.at(-1)).toMatchObject({
      changedFields: ['data.employer'],
      previous: { 'data.employer': acme.id },
    });
    expect((await eventsOf(actor, 'record.unlinked')).map((e) => e.to)).toEqual([acme.id]);
    const cleared = await updateRecord(t.db, actor, { id: ada.id, data: { employer: null } });
    expect(cleared.data).not.toHaveProperty('employer');
    expect(await linksOf(ws)).toEqual([]);
  });

  it('linking through the MANY side sets the ONE value of the other record', async () => {
    const { actor, company, person } = await companiesAndPeople({ labels: ['Founder', 'Staff'] });
    const acme = await company('Acme');
    const globex = await company('Globex');
    const ada = await person('Ada', { employer: acme.id });
    const made = await linkRecord(t.db, actor, {
      id: globex.id,
      field: 'people',
      to: ada.id,
      label: 'Founder',
    });
    expect(made).toMatchObject({
      created: true,
      data: { from: globex.id, field: 'people', to: ada.id, label: 'Founder' },
    });
    expect((await getRecord(t.db, actor, { id: ada.id })).data.employer).toBe(globex.id);
    expect((await findRelated(t.db, actor, { id: acme.id, field: 'people' })).data).toEqual([]);
    const again = await linkRecord(t.db, actor, {
      id: globex.id,
      field: 'people',
      to: ada.id,
      label: 'Staff',
    });
    expect(again).toMatchObject({ created: false, data: { label: 'Staff' } });
    await expectDomainError(
      linkRecord(t.db, actor, { id: globex.id, field: 'people', to: ada.id, label: 'CEO' }),
      'VALIDATION_FAILED',
    );
    expect(await getLink(t.db, actor, { id: ada.id, field: 'employer', to: globex.id })).toMatchObject({
      label: 'Staff',
    });
    await unlinkRecord(t.db, actor, { id: ada.id, field: 'employer', to: globex.id });
    expect((await getRecord(t.db, actor, { id: ada.id })).data).not.toHaveProperty('employer');
    await expectDomainError(
      unlinkRecord(t.db, actor, { id: ada.id, field: 'employer', to: globex.id }),
      'NOT_FOUND',
    );
  });

  it('batch creates resolve every value in one go and answer each item alone', async () => {
    const { actor, company, people } = await companiesAndPeople();
    const acme = await company('Acme');
    const outcomes = await createRecords(t.db, actor, {
      items: [
        { ok: true, input: { folderId: people, title: 'A', data: { employer: { title: 'Acme' } } } },
        { ok: true, input: { folderId: people, title: 'B', data: { employer: { title: 'Nope' } } } },
        { ok: true, input: { folderId: people, title: 'C', data: { employer: acme.id } } },
      ],
    });
    expect(outcomes.map((o) => (o.ok ? o.created : o.error.message))).toEqual([
      true,
      expect.stringMatching(/no live record of folder Companies has the title "Nope"/),
      true,
    ]);
    expect((await findRelated(t.db, actor, { id: acme.id, field: 'people', count: 'true' })).meta.total).toBe(
      2,
    );
  });
});

describe('batch links', () => {
  it('apply in order, each item answered alone', async () => {
    const { actor, company, person } = await companiesAndPeople();
    const acme = await company('Acme');
    const globex = await company('Globex');
    const ada = await person('Ada');
    const outcomes = await linkRecords(t.db, actor, [
      { ok: true, input: { from: ada.id, field: 'employer', to: acme.id } },
      { ok: true, input: { from: ada.id, field: 'employer', to: globex.id } },
      { ok: true, input: { from: ada.id, field: 'nope', to: acme.id } },
      { ok: true, input: { from: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5', field: 'employer', to: acme.id } },
    ]);
    expect(outcomes.map((o) => (o.ok ? (o.created ? 201 : 200) : (o.error as DomainError).code))).toEqual([
      201,
      201,
      'VALIDATION_FAILED',
      'NOT_FOUND',
    ]);
    expect((await getRecord(t.db, actor, { id: ada.id })).data.employer).toBe(globex.id);
    // The link made and replaced by the same batch was never there.
    expect((await eventsOf(actor, 'record.linked')).map((e) => e.to)).toEqual([globex.id]);
    expect(await eventsOf(actor, 'record.unlinked')).toEqual([]);
  });
});

describe('the most links a field holds', () => {
  it('is 10,000 a record and field, on either side: one more is a 409 naming `to`, in the batch as alone', async () => {
    const { ws, actor, company, person, people } = await companiesAndPeople();
    const acme = await company('Acme');
    // 9,999 people already at Acme, written as rows (the limit is about what is stored).
    await t.query(
      `insert into records (workspace_id, id, folder_id, title)
         select $1, 'rec_fill' || g, $2, 'Filler ' || g from generate_series(1, ${MAX_LINKS_PER_FIELD - 1}) g`,
      [ws.actor.workspaceId, people],
    );
    const [relation] = await t.query<{ relation_id: string }>(
      `select f -> 'relation' ->> 'id' as relation_id from folders, jsonb_array_elements(fields) f
        where workspace_id = $1 and id = $2 and f ->> 'key' = 'employer'`,
      [ws.actor.workspaceId, people],
    );
    await t.query(
      `insert into record_links (workspace_id, relation_id, from_id, to_id)
         select $1, $2, 'rec_fill' || g, $3 from generate_series(1, ${MAX_LINKS_PER_FIELD - 1}) g`,
      [ws.actor.workspaceId, relation!.relation_id, acme.id],
    );
    const last = await person('Last');
    const oneTooMany = await person('One too many');
    const outcomes = await linkRecords(t.db, actor, [
      { ok: true, input: { from: acme.id, field: 'people', to: last.id } },
      { ok: true, input: { from: acme.id, field: 'people', to: oneTooMany.id } },
    ]);
    expect(outcomes[0]).toMatchObject({ ok: true, created: true });
    expect(outcomes[1]!.ok).toBe(false);
    const refused = (outcomes[1] as { error: DomainError }).error;
    expect(refused.code).toBe('CONFLICT');
    expect(refused.details).toEqual([{ path: 'to', message: expect.stringContaining('people') }]);
    // From the ONE side too: this person's employer would make Acme's 10,001st link.
    await expectDomainError(
      linkRecord(t.db, actor, { id: oneTooMany.id, field: 'employer', to: acme.id }),
      'CONFLICT',
    );
    expect((await getRecord(t.db, actor, { id: oneTooMany.id })).data.employer).toBeUndefined();
    const [held] = await t.query<{ n: string }>(
      'select count(*) as n from record_links where workspace_id = $1 and to_id = $2',
      [ws.actor.workspaceId, acme.id],
    );
    expect(Number(held!.n)).toBe(MAX_LINKS_PER_FIELD);
  });
});

describe("the limit with the process's tallies", () => {
  it('counts a side again once its tally is a minute old, and at every link once near the limit', async () => {
    const { ws, actor, company, person, people } = await companiesAndPeople();
    const acme = await company('Acme');
    const [relation] = await t.query<{ relation_id: string }>(
      `select f -> 'relation' ->> 'id' as relation_id from folders, jsonb_array_elements(fields) f
        where workspace_id = $1 and id = $2 and f ->> 'key' = 'employer'`,
      [ws.actor.workspaceId, people],
    );
    // Links made outside this process: rows written straight into the table.
    const setMadeElsewhere = async (n: number) => {
      await t.query(`delete from record_links where to_id = $1 and from_id like 'rec_fill%'`, [acme.id]);
      await t.query(
        `insert into record_links (workspace_id, relation_id, from_id, to_id)
           select $1, $2, 'rec_fill' || g, $3 from generate_series(1, $4::int) g`,
        [ws.actor.workspaceId, relation!.relation_id, acme.id, n],
      );
    };
    const held = async () =>
      Number(
        (
          await t.query<{ n: string }>('select count(*) as n from record_links where to_id = $1', [acme.id])
        )[0]!.n,
      );
    let people_ = 0;
    const link = async () => {
      const to = await person(`Person ${++people_}`);
      const [outcome] = await linkRecords(t.db, actor, [
        { ok: true, input: { from: acme.id, field: 'people', to: to.id } },
      ]);
      return outcome!.ok ? (outcome!.created ? 201 : 200) : (outcome as { error: DomainError }).error.code;
    };
    let now = 0;
    attachLinkTallies(t.db, new LinkTallies({ ttlMs: 60_000, now: () => now }));
    try {
      expect(await link()).toBe(201); // counted (0); the tally is 1
      await setMadeElsewhere(MAX_LINKS_PER_FIELD - 1);
      // Within the minute the tally (1, this link and the margin: far from the limit) stands in
      // for a count: the links made elsewhere go unseen, and this one is made.
      now = 59_999;
      expect(await link()).toBe(201);
      expect(await held()).toBe(MAX_LINKS_PER_FIELD + 1);
      // A minute after the count the side is counted again, and the limit holds.
      now = 60_000;
      expect(await link()).toBe('CONFLICT');
      // With a fresh tally near the limit, every link is counted: exactly 10,000 are made.
      await setMadeElsewhere(MAX_LINKS_PER_FIELD - 4);
      expect(TALLY_MARGIN).toBeGreaterThan(2);
      expect([await link(), await link(), await link()]).toEqual([201, 201, 'CONFLICT']);
      expect(await held()).toBe(MAX_LINKS_PER_FIELD);
    } finally {
      attachLinkTallies(t.db, undefined);
    }
  });
});

describe('filters and expand', () => {
  it('filter across one hop and by linked record; expand ONE fields', async () => {
    const { actor, company, person, people } = await companiesAndPeople();
    const gold = await company('Acme', 'Gold');
    const silver = await company('Globex', 'Silver');
    const ada = await person('Ada', { employer: gold.id });
    const grace = await person('Grace', { employer: silver.id });
    const alan = await person('Alan');
    const titles = async (filter: Record<string, unknown>) =>
      (await findRecords(t.db, actor, { folderId: people, filter: filter as never, sort: 'title' })).data.map(
        (r) => r.title,
      );
    expect(await titles({ 'employer.data.tier': 'Gold' })).toEqual(['Ada']);
    expect(await titles({ 'employer.data.tier': { ne: 'Gold' } })).toEqual(['Alan', 'Grace']);
    expect(await titles({ 'employer.title': { contains: 'glob' } })).toEqual(['Grace']);
    expect(await titles({ employer: silver.id })).toEqual(['Grace']);
    expect(await titles({ 'data.employer': { in: `${gold.id},${silver.id}` } })).toEqual(['Ada', 'Grace']);
    expect(await titles({ employer: { empty: 'true' } })).toEqual(['Alan']);
    expect(await titles({ 'employer.title': { empty: 'true' } })).toEqual(['Alan']);
    const page = await findRecords(t.db, actor, { folderId: people, expand: 'employer', sort: 'title' });
    expect(page.data.map((r) => r.expanded?.employer?.title ?? null)).toEqual([
      gold.title,
      null,
      silver.title,
    ]);
    const one = await getRecord(t.db, actor, { id: ada.id, expand: 'employer' });
    expect(one.expanded).toEqual({ employer: expect.objectContaining({ id: gold.id }) });
    await expectDomainError(getRecord(t.db, actor, { id: grace.id, expand: 'nope' }), 'VALIDATION_FAILED');
    void alan;
  });
});

describe('filters across a relation, both forms', () => {
  it('check each row when too many linked records match to name them, with the same answer', async () => {
    const { actor, company, person, people } = await companiesAndPeople();
    const gold = await company('Acme', 'Gold');
    const silver = await company('Globex', 'Silver');
    await person('Ada', { employer: gold.id });
    await person('Grace', { employer: silver.id });
    await person('Alan');
    const folder = await loadFolder(t.db, actor, people);
    const filters: Record<string, unknown>[] = [
      { 'employer.data.tier': 'Gold' },
      { 'employer.data.tier': { ne: 'Gold' } },
      { 'employer.title': { empty: 'true' } },
      { 'employer.title': { contains: 'glob' } },
    ];
    for (const filter of filters) {
      const tree = treeFromParam(filter as never)!;
      const fields = await recordFields(t.db, actor, folder, fieldsOf(tree), 'createdAt');
      const r = schema.records;
      // Without prepare, the condition cannot name the linked records: it checks each row.
      const walked = await t.db
        .select({ title: r.title })
        .from(r)
        .where(
          and(eq(r.workspaceId, actor.workspaceId), eq(r.folderId, people), filterSql(tree, fields.table)),
        )
        .orderBy(r.title);
      const named = await findRecords(t.db, actor, {
        folderId: people,
        filter: filter as never,
        sort: 'title',
      });
      expect(
        walked.map((w) => w.title),
        JSON.stringify(filter),
      ).toEqual(named.data.map((d) => d.title));
    }
  });
});

describe('Trash', () => {
  it('hides links of a trashed record, brings them back on restore, and the purge removes them', async () => {
    const { ws, actor, company, person } = await companiesAndPeople();
    const acme = await company('Acme');
    const ada = await person('Ada', { employer: acme.id });
    await trashRecord(t.db, actor, acme.id);
    expect((await getRecord(t.db, actor, { id: ada.id })).data.employer).toBeNull();
    expect((await getRecord(t.db, actor, { id: ada.id, expand: 'employer' })).expanded).toEqual({
      employer: null,
    });
    await expectDomainError(
      linkRecord(t.db, actor, { id: ada.id, field: 'employer', to: acme.id }),
      'VALIDATION_FAILED',
    );
    await restoreRecord(t.db, actor, acme.id);
    expect((await getRecord(t.db, actor, { id: ada.id })).data.employer).toBe(acme.id);
    await trashRecord(t.db, actor, ada.id);
    expect((await findRelated(t.db, actor, { id: acme.id, field: 'people' })).data).toEqual([]);
    await t.query(`update records set trashed_at = now() - interval '40 days' where id = $1`, [ada.id]);
    await purgeTrash(t.db);
    expect(await linksOf(ws)).toEqual([]);
    // A company purged while a live person named it: the person's value goes, not just null.
    const grace = await person('Grace', { employer: acme.id });
    await trashRecord(t.db, actor, acme.id);
    expect((await getRecord(t.db, actor, { id: grace.id })).data.employer).toBeNull();
    await t.query(`update records set trashed_at = now() - interval '40 days' where id = $1`, [acme.id]);
    await purgeTrash(t.db);
    expect((await getRecord(t.db, actor, { id: grace.id })).data).not.toHaveProperty('employer');
  });
});

describe('purging records', () => {
  it('removes their links through every relation that reaches their folder, and no other link', async () => {
    const { ws, actor, companies, people, company, person } = await companiesAndPeople();
    // A relation on People pointing at Companies with no inverse (Companies has no field for it),
    // and a self-relation of Companies: the purge finds both from the folders' fields.
    await addFolderField(t.db, actor, {
      id: people,
      key: 'formerEmployers',
      label: 'Former employers',
      type: 'RELATION',
      relation: { folderId: companies, cardinality: 'MANY' },
    });
    await addFolderField(t.db, actor, {
      id: companies,
      key: 'parent',
      label: 'Parent',
      type: 'RELATION',
      relation: { folderId: companies, cardinality: 'ONE' },
      inverse: { key: 'subsidiaries', label: 'Subsidiaries', cardinality: 'MANY' },
    });
    const acme = await company('Acme');
    const globex = await company('Globex');
    const initech = await company('Initech', 'Silver');
    const ada = await person('Ada', { employer: acme.id });
    const grace = await person('Grace', { employer: globex.id });
    await linkRecords(t.db, actor, [
      { ok: true, input: { from: ada.id, field: 'formerEmployers', to: acme.id } },
      { ok: true, input: { from: grace.id, field: 'formerEmployers', to: acme.id } },
      { ok: true, input: { from: grace.id, field: 'formerEmployers', to: globex.id } },
      { ok: true, input: { from: acme.id, field: 'parent', to: globex.id } },
      { ok: true, input: { from: initech.id, field: 'parent', to: acme.id } },
    ]);
    expect(await linksOf(ws)).toHaveLength(7);
    await trashRecord(t.db, actor, acme.id);
    await t.query(`update records set trashed_at = now() - interval '40 days' where id = $1`, [acme.id]);
    expect(await purgeTrash(t.db)).toBe(1);
    // Every link that named Acme, on either side of any relation, is gone; the others stay.
    const left = await linksOf(ws);
    expect(left.filter((l) => l.from_id === acme.id || l.to_id === acme.id)).toEqual([]);
    expect(left.map((l) => [l.from_id, l.to_id]).sort()).toEqual(
      [
        [grace.id, globex.id],
        [grace.id, globex.id],
      ].sort(),
    );
    expect((await getRecord(t.db, actor, { id: ada.id })).data).not.toHaveProperty('employer');
    expect((await getRecord(t.db, actor, { id: initech.id })).data).not.toHaveProperty('parent');
  });
});

describe('removing a relation field', () => {
  it('is a 409 while links exist; with force the field, its inverse and the links go', async () => {
    const { ws, actor, companies, company, person, people } = await companiesAndPeople();
    const acme = await company('Acme');
    await person('Ada', { employer: acme.id });
    await expectDomainError(removeFolderField(t.db, actor, { id: people, key: 'employer' }), 'CONFLICT');
    const folder = await removeFolderField(t.db, actor, { id: people, key: 'employer', force: 'true' });
    expect(folder.fields.map((f) => f.key)).not.toContain('employer');
    const [target] = await t.query<{ fields: { key: string }[] }>(
      'select fields from folders where id = $1',
      [companies],
    );
    expect(target!.fields.map((f) => f.key)).toEqual(['tier']);
    expect(await linksOf(ws)).toEqual([]);
    expect(await eventsOf(actor, 'record.unlinked')).toHaveLength(1);
  });
});

describe('self-relations and one-to-one', () => {
  it('a folder relates to itself: manager ONE ↔ reports MANY', async () => {
    const ws = await newWorkspace(t.db);
    const actor = ws.actor;
    await addFolderField(t.db, actor, {
      id: ws.peopleFolderId,
      key: 'manager',
      label: 'Manager',
      type: 'RELATION',
      relation: { folderId: ws.peopleFolderId, cardinality: 'ONE' },
      inverse: { key: 'reports', label: 'Reports', cardinality: 'MANY' },
    });
    const person = async (title: string, data: Record<string, unknown> = {}) =>
      (await createRecord(t.db, actor, { folderId: ws.peopleFolderId, title, data })).record;
    const boss = await person('Boss');
    const ada = await person('Ada', { manager: boss.id });
    const grace = await person('Grace', { manager: { title: 'Boss' } });
    const reports = await findRelated(t.db, actor, { id: boss.id, field: 'reports', sort: 'title' });
    expect(reports.data.map((r) => r.title)).toEqual(['Ada', 'Grace']);
    const managed = await findRecords(t.db, actor, {
      folderId: ws.peopleFolderId,
      filter: { 'manager.title': 'Boss' } as never,
      sort: 'title',
    });
    expect(managed.data.map((r) => r.id)).toEqual([ada.id, grace.id]);
    // Grace becomes Ada's manager from Grace's side: Ada leaves Boss.
    await linkRecord(t.db, actor, { id: grace.id, field: 'reports', to: ada.id });
    expect((await getRecord(t.db, actor, { id: ada.id })).data.manager).toBe(grace.id);
    expect((await findRelated(t.db, actor, { id: boss.id, field: 'reports' })).data.map((r) => r.id)).toEqual(
      [grace.id],
    );
  });

  it('one-to-one: a new partner takes the place of the old one on both sides', async () => {
    const ws = await newWorkspace(t.db);
    const actor = ws.actor;
    await addFolderField(t.db, actor, {
      id: ws.peopleFolderId,
      key: 'buddy',
      label: 'Buddy',
      type: 'RELATION',
      relation: { folderId: ws.peopleFolderId, cardinality: 'ONE' },
      inverse: { key: 'buddyOf', label: 'Buddy of', cardinality: 'ONE' },
    });
    const person = async (title: string, data: Record<string, unknown> = {}) =>
      (await createRecord(t.db, actor, { folderId: ws.peopleFolderId, title, data })).record;
    const a = await person('A');
    const b = await person('B');
    const c = await person('C');
    await updateRecord(t.db, actor, { id: a.id, data: { buddy: b.id } });
    expect((await getRecord(t.db, actor, { id: b.id })).data.buddyOf).toBe(a.id);
    // C takes B: A loses its buddy, B's buddyOf is now C.
    await updateRecord(t.db, actor, { id: c.id, data: { buddy: b.id } });
    expect((await getRecord(t.db, actor, { id: a.id })).data).not.toHaveProperty('buddy');
    expect((await getRecord(t.db, actor, { id: b.id })).data.buddyOf).toBe(c.id);
    expect(await linksOf(ws)).toEqual([{ from_id: c.id, to_id: b.id, label: null }]);
    const updatedA = (await eventsOf(actor, 'record.updated')).filter((e) => e.recordId === a.id);
    expect(updatedA.at(-1)).toMatchObject({
      changedFields: ['data.buddy'],
      previous: { 'data.buddy': b.id },
    });
  });
});
