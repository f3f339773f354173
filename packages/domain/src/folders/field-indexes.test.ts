import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { addFolderField } from './add-folder-field.ts';
import { createFolder } from './create-folder.ts';
import {
  fieldIndexName,
  fieldStatisticsName,
  linkIndexName,
  linkOrderIndexName,
  linkStatisticsName,
} from './field-indexes.ts';

/** The index a field of an ordered type gets when its key first appears (docs/api.md, "Indexes"). */

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

describe('field indexes', () => {
  it('are built once when several workspaces add the same new key at the same moment', async () => {
    const key = `k${Date.now().toString(36)}`;
    const actors = await Promise.all(Array.from({ length: 4 }, (_, i) => newWorkspace(t.db, `Index ${i}`)));
    const folders = await Promise.all(
      actors.map(({ actor }) =>
        createFolder(t.db, actor, { name: 'Scores', fields: [{ key, label: 'Score', type: 'NUMBER' }] }),
      ),
    );
    expect(folders.map((f) => f.fields[0]?.key)).toEqual([key, key, key, key]);
    const indexes = await t.query<{ valid: boolean }>(
      `select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = $1`,
      [fieldIndexName(key)],
    );
    expect(indexes).toEqual([{ valid: true }]);
    // With the index, statistics on the value, so that the planner knows how many records a
    // value matches (docs/api.md, "Indexes").
    const statistics = await t.query<{ expression: string }>(
      `select pg_get_statisticsobjdef_expressions(oid)::text as expression from pg_statistic_ext where stxname = $1`,
      [fieldStatisticsName(key)],
    );
    expect(statistics).toEqual([{ expression: `{"(data -> '${key}'::text)"}` }]);
  });

  it('give a ONE relation key, and its inverse when ONE, an index of the ids it names, with statistics, and its two list orders', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db, 'Links');
    const key = `l${Date.now().toString(36)}`;
    const inverse = `${key}_of`;
    await addFolderField(t.db, actor, {
      id: peopleFolderId,
      key,
      label: 'Buddy',
      type: 'RELATION',
      relation: { folderId: peopleFolderId, cardinality: 'ONE' },
      inverse: { key: inverse, label: 'Buddy of', cardinality: 'ONE' },
    });
    for (const k of [key, inverse]) {
      const [index] = await t.query<{ definition: string }>(
        `select pg_get_indexdef(c.oid) as definition from pg_class c where c.relname = $1`,
        [linkIndexName(k)],
      );
      expect(index?.definition).toContain(`"left"((data ->> '${k}'::text), 64)`);
      expect(index?.definition).toContain(`WHERE ((trashed_at IS NULL) AND (data ? '${k}'::text))`);
      const statistics = await t.query<{ expression: string }>(
        `select (pg_get_statisticsobjdef_expressions(oid))[1] as expression from pg_statistic_ext where stxname = $1`,
        [linkStatisticsName(k)],
      );
      expect(statistics).toEqual([{ expression: `"left"((data ->> '${k}'::text), 64)` }]);
      // The two orders lists walk, over the records that hold a value.
      for (const order of ['created', 'updated'] as const) {
        const [walk] = await t.query<{ definition: string }>(
          `select pg_get_indexdef(c.oid) as definition from pg_class c where c.relname = $1`,
          [linkOrderIndexName(k, order)],
        );
        expect(walk?.definition).toContain(`(workspace_id, ${order}_at DESC, id DESC)`);
        expect(walk?.definition).toContain(`WHERE ((trashed_at IS NULL) AND (data ? '${k}'::text))`);
      }
    }
    // A MANY field needs none: its links are read from the links table.
    await addFolderField(t.db, actor, {
      id: peopleFolderId,
      key: `${key}_many`,
      label: 'Friends',
      type: 'RELATION',
      relation: { folderId: peopleFolderId, cardinality: 'MANY' },
    });
    expect(
      await t.query('select 1 from pg_class where relname in ($1, $2, $3)', [
        linkIndexName(`${key}_many`),
        linkOrderIndexName(`${key}_many`, 'created'),
        linkOrderIndexName(`${key}_many`, 'updated'),
      ]),
    ).toEqual([]);
  });
});
