import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Relations between records over HTTP (docs/api.md, "Relations"): the worked example of the
 * docs, the write conventions on link calls (Idempotency-Key, If-Match, the rate limit), and
 * the refusals that name the field and write nothing. Runs on the sharded database too
 * (`pnpm test:citus`).
 */

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
});
afterAll(() => app?.stop());

const PREFIX = '/api/v1';

const ok = (method: string, path: string, body?: unknown, key = ws.apiKey) => okAs(method, path, body, key);

async function okAs(method: string, path: string, body: unknown, key: string) {
  const res = await app.api(key, method, `${PREFIX}${path}`, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

/** A Companies folder, and `employer` ONE on the workspace's People ↔ `people` MANY on Companies. */
async function companiesAndPeople(w: TestWorkspace, labels?: string[]) {
  const key = w.apiKey;
  const companies = (
    await ok(
      'POST',
      '/folders',
      {
        name: 'Companies',
        fields: [{ key: 'tier', label: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] }],
      },
      key,
    )
  ).data.id as string;
  await ok(
    'POST',
    `/folders/${w.folderId}/fields`,
    {
      key: 'employer',
      label: 'Company',
      type: 'RELATION',
      relation: { folderId: companies, cardinality: 'ONE', ...(labels ? { labels } : {}) },
      inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
    },
    key,
  );
  return companies;
}

describe('relations over REST', () => {
  it('the worked example of docs/api.md: companies and people, a deal with three labelled participants', async () => {
    const companies = await companiesAndPeople(ws);
    const acme = (
      await ok('POST', '/records', { folderId: companies, title: 'Acme', data: { tier: 'Gold' } })
    ).data.id;
    await ok('POST', '/records', { folderId: companies, title: 'Globex', data: { tier: 'Silver' } });
    const people: Record<string, string> = {};
    for (const name of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) {
      const made = await ok('POST', '/records', {
        folderId: ws.folderId,
        title: name,
        data: { employer: { title: 'Acme' } },
      });
      expect(made.data.data.employer).toBe(acme);
      people[name] = made.data.id;
    }
    const related = await ok('GET', `/records/${acme}/related/people?sort=title&count=true`);
    expect(related.data.map((r: { title: string }) => r.title)).toEqual([
      'Ada Lovelace',
      'Alan Turing',
      'Grace Hopper',
    ]);
    expect(related.meta.total).toBe(3);
    const gold = await ok(
      'GET',
      `/records?folderId=${ws.folderId}&filter[employer.data.tier]=Gold&expand=employer&sort=title`,
    );
    expect(
      gold.data.map((r: { expanded: { employer: { title: string } } }) => r.expanded.employer.title),
    ).toEqual(['Acme', 'Acme', 'Acme']);
    const linkedTo = await ok(
      'GET',
      `/records?folderId=${companies}&filter[people]=${people['Ada Lovelace']}`,
    );
    expect(linkedTo.data.map((r: { id: string }) => r.id)).toEqual([acme]);

    const pipeline = (await ok('GET', '/pipelines')).data[0];
    const deal = (
      await ok('POST', '/deals', {
        pipelineId: pipeline.id,
        title: 'Acme renewal',
        amount: 48000,
        recordId: acme,
      })
    ).data.id;
    const roles = [
      ['Ada Lovelace', 'Decision maker'],
      ['Grace Hopper', 'Champion'],
      ['Alan Turing', 'Billing'],
    ] as const;
    for (const [name, label] of roles) {
      const res = await app.api(ws.apiKey, 'POST', `${PREFIX}/deals/${deal}/links`, {
        to: people[name],
        label,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('location')).toMatch(new RegExp(`/api/v1/deals/${deal}/links$`));
    }
    const participants = await ok('GET', `/deals/${deal}/links`);
    expect(
      participants.data.map((r: { title: string; link: { label: string | null; primary: boolean } }) => [
        r.title,
        r.link.label,
        r.link.primary,
      ]),
    ).toEqual([
      ['Acme', null, true],
      ['Ada Lovelace', 'Decision maker', false],
      ['Grace Hopper', 'Champion', false],
      ['Alan Turing', 'Billing', false],
    ]);
    const adasDeals = await ok('GET', `/records/${people['Ada Lovelace']}/deals`);
    expect(adasDeals.data.map((d: { id: string; link: object }) => [d.id, d.link])).toEqual([
      [deal, { label: 'Decision maker', primary: false, createdAt: expect.any(String) }],
    ]);
    // Both sides' timelines show the link.
    const acmeTimeline = await ok('GET', `/records/${acme}/timeline`);
    expect(acmeTimeline.data.filter((e: { kind: string }) => e.kind === 'record.linked')).toHaveLength(3);
    const adaTimeline = await ok('GET', `/records/${people['Ada Lovelace']}/timeline`);
    expect(adaTimeline.data.find((e: { kind: string }) => e.kind === 'record.linked').link).toEqual({
      field: 'employer',
      recordId: acme,
      title: 'Acme',
      label: null,
    });
    const acmesDeals = await ok('GET', `/records/${acme}/deals?pipelineId=${pipeline.id}&count=true`);
    expect(acmesDeals.meta.total).toBe(1);
    expect(acmesDeals.data[0].link).toMatchObject({ label: null, primary: true });
    // Unlinking the primary record clears the deal's recordId; the record may also be named
    // in a JSON body or the query string of DELETE /deals/{id}/links.
    await ok('DELETE', `/deals/${deal}/links/${acme}`);
    await ok('DELETE', `/deals/${deal}/links`, { to: people['Alan Turing'] });
    await ok('DELETE', `/deals/${deal}/links?to=${people['Grace Hopper']}`);
    const both = await app.api(ws.apiKey, 'DELETE', `${PREFIX}/deals/${deal}/links?to=${acme}`, { to: acme });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([{ path: 'to', message: expect.stringMatching(/both/) }]);
    const stranger = await app.api(ws.apiKey, 'DELETE', `${PREFIX}/deals/${deal}/links`, {
      to: acme,
      label: 'x',
    });
    expect(stranger.status).toBe(400);
    expect((await ok('GET', `/deals/${deal}/links`)).data.map((r: { title: string }) => r.title)).toEqual([
      'Ada Lovelace',
    ]);
    expect((await ok('GET', `/deals/${deal}`)).data.recordId).toBeNull();
  });

  it('refuses references of another workspace, of the wrong folder and in Trash, naming the field, writing nothing', async () => {
    const ws = await app.createWorkspace({ rateLimitPerMinute: 1_000 });
    const ok = (method: string, path: string, body?: unknown, key = ws.apiKey) =>
      okAs(method, path, body, key);
    const companies = await companiesAndPeople(ws);
    const other = await app.createWorkspace();
    const otherCompanies = await companiesAndPeople(other);
    const foreign = (
      await ok('POST', '/records', { folderId: otherCompanies, title: 'Foreign' }, other.apiKey)
    ).data.id;
    const person = (
      await ok('POST', '/records', { folderId: ws.folderId, title: 'Kept', data: { lifecycle: 'Lead' } })
    ).data;
    const trashed = (await ok('POST', '/records', { folderId: companies, title: 'Trashed' })).data.id;
    await ok('DELETE', `/records/${trashed}`);
    const wrongFolder = (await ok('POST', '/records', { folderId: ws.folderId, title: 'Not a company' })).data
      .id;
    for (const target of [foreign, trashed, wrongFolder]) {
      const res = await app.api(ws.apiKey, 'PATCH', `${PREFIX}/records/${person.id}`, {
        title: 'Changed',
        data: { employer: target, lifecycle: 'Customer' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.details).toEqual([
        {
          path: 'data.employer',
          message: expect.stringMatching(/is not a live record of folder Companies$/),
        },
      ]);
      const link = await app.api(ws.apiKey, 'POST', `${PREFIX}/records/${person.id}/links`, {
        field: 'employer',
        to: target,
      });
      expect(link.status, link.text).toBe(400);
      expect(link.body.error.details[0].path).toBe('to');
    }
    // Nothing of the refused PATCHes was written.
    expect((await ok('GET', `/records/${person.id}`)).data).toEqual(person);
    const unknownField = await app.api(ws.apiKey, 'POST', `${PREFIX}/records/${person.id}/links`, {
      field: 'lifecycle',
      to: wrongFolder,
    });
    expect(unknownField.body.error.details[0]).toMatchObject({ path: 'field' });
    const many = await app.api(ws.apiKey, 'POST', `${PREFIX}/records`, {
      folderId: companies,
      title: 'X',
      data: { people: person.id },
    });
    expect(many.body.error.details[0]).toMatchObject({
      path: 'data.people',
      message: expect.stringMatching(/MANY/),
    });
  });

  it('replays a link under the same Idempotency-Key, checks If-Match on unlink, counts a batch as one request', async () => {
    const w = await app.createWorkspace({ rateLimitPerMinute: 1_000 });
    const companies = await companiesAndPeople(w, ['Owner']);
    const acme = (await ok('POST', '/records', { folderId: companies, title: 'Acme' }, w.apiKey)).data.id;
    const ada = (await ok('POST', '/records', { folderId: w.folderId, title: 'Ada' }, w.apiKey)).data.id;
    const headers = { 'Idempotency-Key': `link-${Date.now()}` };
    const body = { field: 'employer', to: acme, label: 'Owner' };
    const first = await app.api(w.apiKey, 'POST', `${PREFIX}/records/${ada}/links`, body, headers);
    const again = await app.api(w.apiKey, 'POST', `${PREFIX}/records/${ada}/links`, body, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const reused = await app.api(
      w.apiKey,
      'POST',
      `${PREFIX}/records/${ada}/links`,
      { ...body, label: null },
      headers,
    );
    expect(reused.status).toBe(422);
    // Without a key, linking again is a 200 with the link that is there.
    const twice = await app.api(w.apiKey, 'POST', `${PREFIX}/records/${acme}/links`, {
      field: 'people',
      to: ada,
    });
    expect(twice.status).toBe(200);
    expect(twice.body.data).toMatchObject({ from: acme, field: 'people', to: ada, label: 'Owner' });

    const link = `${PREFIX}/records/${ada}/links/employer/${acme}`;
    const current = await app.api(w.apiKey, 'GET', link);
    const stale = await app.api(w.apiKey, 'DELETE', link, undefined, { 'If-Match': '"stale"' });
    expect(stale.status).toBe(412);
    const gone = await app.api(w.apiKey, 'DELETE', link, undefined, {
      'If-Match': current.headers.get('etag')!,
    });
    expect(gone.status, gone.text).toBe(200);
    expect((await app.api(w.apiKey, 'GET', link)).status).toBe(404);

    const before = Number(
      (await app.api(w.apiKey, 'GET', `${PREFIX}/me`)).headers.get('ratelimit-remaining'),
    );
    const items = Array.from({ length: 3 }, () => ({ from: ada, field: 'employer', to: acme }));
    const batch = await app.api(w.apiKey, 'POST', `${PREFIX}/records/links/batch`, { items });
    expect(batch.body.data.map((d: { status: number }) => d.status)).toEqual([201, 200, 200]);
    const after = Number(batch.headers.get('ratelimit-remaining'));
    expect(before - after).toBe(1);
  });

  it('writes ONE values through batch create, batch PATCH and upsert, one link each, and events once per link', async () => {
    const w = await app.createWorkspace({ rateLimitPerMinute: 1_000 });
    const companies = await companiesAndPeople(w);
    const acme = (
      await ok('POST', '/records', { folderId: companies, title: 'Acme', email: 'hq@acme.test' }, w.apiKey)
    ).data.id;
    const globex = (await ok('POST', '/records', { folderId: companies, title: 'Globex' }, w.apiKey)).data.id;
    const created = await ok(
      'POST',
      '/records/batch',
      {
        items: [
          {
            folderId: w.folderId,
            title: 'One',
            email: 'one@example.com',
            data: { employer: { email: 'HQ@acme.test' } },
          },
          { folderId: w.folderId, title: 'Two', data: { employer: { title: 'Nobody' } } },
        ],
      },
      w.apiKey,
    );
    expect(created.data.map((d: { status: number }) => d.status)).toEqual([201, 400]);
    const one = created.data[0].data.id;
    await ok('PATCH', '/records/batch', { items: [{ id: one, data: { employer: globex } }] }, w.apiKey);
    const upserted = await app.api(w.apiKey, 'POST', `${PREFIX}/records?upsert=email`, {
      folderId: w.folderId,
      title: 'One again',
      email: 'one@example.com',
      data: { employer: acme },
    });
    expect(upserted.status).toBe(200);
    expect(upserted.body.data).toMatchObject({ id: one, data: { employer: acme } });
    // The events as written (the feed lists them once settled, a few seconds later).
    const { rows } = await app.service.db.$client.query(
      `select type, payload->>'to' as to from events
        where workspace_id = $1 and type in ('record.linked', 'record.unlinked') order by occurred_at, id`,
      [w.workspaceId],
    );
    expect(rows.map((e: { type: string; to: string }) => [e.type, e.to])).toEqual([
      ['record.linked', acme],
      ['record.unlinked', acme],
      ['record.linked', globex],
      ['record.unlinked', globex],
      ['record.linked', acme],
    ]);
    expect(
      (await ok('GET', `/records/${acme}/related/people`, undefined, w.apiKey)).data.map(
        (r: { id: string }) => r.id,
      ),
    ).toEqual([one]);
  });

  it('links to a record named by title on POST /records/{id}/links, and refuses a title that names none or several, naming `to`', async () => {
    const w = await app.createWorkspace({ rateLimitPerMinute: 1_000 });
    const companies = await companiesAndPeople(w);
    const make = async (folderId: string, title: string) =>
      (await ok('POST', '/records', { folderId, title }, w.apiKey)).data.id as string;
    const acme = await make(companies, 'Acme');
    const umbrellas = [await make(companies, 'Umbrella'), await make(companies, 'Umbrella')];
    await ok('DELETE', `/records/${await make(companies, 'Gone')}`, undefined, w.apiKey);
    const ada = await make(w.folderId, 'Ada Lovelace');
    const grace = await make(w.folderId, 'Grace Hopper');

    const linked = await app.api(w.apiKey, 'POST', `${PREFIX}/records/${ada}/links`, {
      field: 'employer',
      to: { title: 'Acme' },
    });
    expect(linked.status, linked.text).toBe(201);
    expect(linked.body.data).toMatchObject({ from: ada, field: 'employer', to: acme, label: null });
    expect((await ok('GET', `/records/${ada}`, undefined, w.apiKey)).data.data.employer).toBe(acme);
    // From the MANY side, the title is looked up in the field's folder (People).
    const fromCompany = await app.api(w.apiKey, 'POST', `${PREFIX}/records/${acme}/links`, {
      field: 'people',
      to: { title: 'Grace Hopper' },
    });
    expect(fromCompany.status, fromCompany.text).toBe(201);
    expect(fromCompany.body.data).toMatchObject({ from: acme, field: 'people', to: grace });

    const refusals = [
      ['Nowhere Inc', /no live record of folder Companies has the title "Nowhere Inc"/],
      ['Gone', /no live record of folder Companies has the title "Gone"/],
      ['Umbrella', /several live records of folder Companies have the title "Umbrella"/],
    ] as const;
    for (const [title, message] of refusals) {
      const res = await app.api(w.apiKey, 'POST', `${PREFIX}/records/${ada}/links`, {
        field: 'employer',
        to: { title },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'to', message: expect.stringMatching(message) }]);
    }
    // Nothing was written: Ada still works at Acme, and no Umbrella has people.
    expect((await ok('GET', `/records/${ada}`, undefined, w.apiKey)).data.data.employer).toBe(acme);
    for (const umbrella of umbrellas) {
      const people = await ok('GET', `/records/${umbrella}/related/people?count=true`, undefined, w.apiKey);
      expect(people.meta.total).toBe(0);
    }
  });

  it('pages a related list by cursor: every link once, in the order of one page, nextUrl null at the end', async () => {
    const w = await app.createWorkspace({ rateLimitPerMinute: 1_000 });
    const companies = await companiesAndPeople(w);
    const acme = (await ok('POST', '/records', { folderId: companies, title: 'Acme' }, w.apiKey)).data.id;
    const globex = (await ok('POST', '/records', { folderId: companies, title: 'Globex' }, w.apiKey)).data.id;
    const items = Array.from({ length: 10 }, (_, i) => ({
      folderId: w.folderId,
      title: `Person ${i}`,
      // Seven at Acme, three at Globex that its list must not show.
      data: { employer: i < 7 ? acme : globex },
    }));
    const created = await ok('POST', '/records/batch', { items }, w.apiKey);
    const atAcme = created.data.slice(0, 7).map((d: { data: { id: string } }) => d.data.id as string);

    const path = `${PREFIX}/records/${acme}/related/people`;
    const whole = await ok('GET', `/records/${acme}/related/people?pageSize=50`, undefined, w.apiKey);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `pageSize=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await app.api(w.apiKey, 'GET', `${path}?${query}`);
      expect(res.status, res.text).toBe(200);
      const { data, meta } = res.body as {
        data: { id: string }[];
        meta: { hasMore: boolean; nextCursor: string | null; nextUrl: string | null };
      };
      seen.push(...data.map((r) => r.id));
      sizes.push(data.length);
      cursor = meta.nextCursor;
      if (cursor) {
        expect(meta.hasMore).toBe(true);
        const next = new URL(meta.nextUrl!);
        expect(next.pathname).toBe(path);
        expect(next.searchParams.get('cursor')).toBe(cursor);
        expect(next.searchParams.get('pageSize')).toBe('3');
      } else {
        expect(meta).toMatchObject({ hasMore: false, nextCursor: null, nextUrl: null });
      }
    } while (cursor && sizes.length < 10);
    expect(sizes).toEqual([3, 3, 1]);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...atAcme].sort());
    expect(seen).toEqual(whole.data.map((r: { id: string }) => r.id));
  });

  it('serves the same procedures over tRPC', async () => {
    const w = await app.createWorkspace();
    const companies = await companiesAndPeople(w, ['Founder']);
    const trpc = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${w.apiKey}` }) })],
    });
    const acme = (await trpc.records.create.mutate({ folderId: companies, title: 'Acme' })).data;
    const ada = (await trpc.records.create.mutate({ folderId: w.folderId, title: 'Ada' })).data;
    const link = await trpc.records.link.mutate({
      id: acme.id,
      field: 'people',
      to: ada.id,
      label: 'Founder',
    });
    expect(link.data).toMatchObject({ from: acme.id, field: 'people', to: ada.id, label: 'Founder' });
    const related = await trpc.records.related.query({ id: acme.id, field: 'people' });
    expect(related.data.map((r) => [r.id, r.link.label])).toEqual([[ada.id, 'Founder']]);
    const got = await trpc.records.get.query({ id: ada.id, expand: 'employer' });
    expect(got.data.expanded?.employer?.id).toBe(acme.id);
  });
});
