import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFolderField } from '../folders/index.ts';
import type { Actor } from '../shared/actor.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createRecords, createRecordsInput } from './create-records.ts';
import { findRecords } from './find-records.ts';
import { searchWalk } from './list-records.ts';
import { updateRecord } from './update-record.ts';

/** The walk's budgets as the service has them, put back after a test lowered them. */
const SEARCH_WALK = { ...searchWalk };

/**
 * A page is read in up to four statements (the walk, its second step, the rest; and, in a sort
 * where some records have no value, the part without one). While other requests change the
 * records those statements read, a record may move from a part of the list one statement has
 * read to a part a later one reads: it must still appear at most once in the page (docs/api.md,
 * "Paging").
 */

let t: TestDb;
let actor: Actor;
const ids: string[] = [];
const RECORDS = 600;

beforeAll(async () => {
  t = await openTestDb({ max: 12 });
  const ws = await newWorkspace(t.db);
  actor = ws.actor;
  await addFolderField(t.db, actor, { id: ws.peopleFolderId, key: 'score', label: 'Score', type: 'NUMBER' });
  for (let batch = 0; batch < RECORDS / 100; batch++) {
    const outcomes = await createRecords(
      t.db,
      actor,
      createRecordsInput.parse({
        items: Array.from({ length: 100 }, (_, i) => ({
          folderId: ws.peopleFolderId,
          title: `${i % 3 === 0 ? 'Contact' : 'Person'} ${batch * 100 + i}`,
          data: i % 4 === 0 ? {} : { score: (batch * 100 + i) % 50 },
        })),
      }),
    );
    for (const o of outcomes) if (o.ok) ids.push(o.data.id);
  }
  await t.warm(12);
}, 120_000);

afterAll(async () => {
  Object.assign(searchWalk, SEARCH_WALK);
  await t?.close();
});

describe('a page while its records change', () => {
  it('never holds a record twice, in any order, whatever statement saw it first', async () => {
    // A short walk: most pages take the walk, its second step and the rest.
    Object.assign(searchWalk, { rows: 30, reads: 8 });
    // Readers and writers go on until both have done their share, however slow the machine:
    // the test counts work, not time.
    const WRITES = 300;
    const PAGES = 300;
    let pages = 0;
    let writes = 0;
    let n = 0;
    const done = () => writes >= WRITES && pages >= PAGES;
    const writer = async () => {
      while (!done()) {
        const id = ids[Math.floor(Math.random() * ids.length)] as string;
        const k = n++;
        // A new title (in or out of the search, earlier or later by title), a score set,
        // changed or removed, and always a new updatedAt.
        await updateRecord(t.db, actor, {
          id,
          title: `${k % 2 === 0 ? 'Contact' : 'Person'} ${String.fromCharCode(65 + (k % 26))}${k}`,
          data: { score: k % 5 === 0 ? null : k % 50 },
        });
        writes++;
      }
    };
    const reader = async (sort: string) => {
      while (!done()) {
        let cursor: string | undefined;
        for (let page = 0; page < 30; page++) {
          const found = await findRecords(t.db, actor, {
            q: 'contact',
            sort,
            pageSize: 5 + (pages % 40),
            ...(cursor ? { cursor } : {}),
          });
          const own = found.data.map((r) => r.id);
          expect(new Set(own).size, `${sort}: an id twice in one page`).toBe(own.length);
          pages++;
          cursor = found.meta.nextCursor ?? undefined;
          if (!cursor) break;
        }
      }
    };
    await Promise.all([
      writer(),
      writer(),
      writer(),
      ...['updatedAt', '-updatedAt', 'title', '-title', 'data.score', '-data.score'].map(reader),
    ]);
    expect(writes).toBeGreaterThanOrEqual(WRITES);
    expect(pages).toBeGreaterThanOrEqual(PAGES);
  }, 180_000);
});
