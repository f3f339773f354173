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
  makeFieldIndexes,
  textIndexName,
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

  it('give a TEXT, EMAIL or URL key the order of its short values and where its long ones are, and the worker builds any that are missing', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db, 'Texts');
    const stamp = Date.now().toString(36);
    const keys = { TEXT: `t${stamp}`, EMAIL: `e${stamp}`, URL: `u${stamp}` } as const;
    for (const [type, key] of Object.entries(keys) as [keyof typeof keys, string][]) {
      await addFolderField(t.db, actor, { id: peopleFolderId, key, label: type, type });
    }
    const definitions = async (key: string) =>
      t.query<{ name: string; definition: string; valid: boolean }>(
        `select c.relname as name, pg_get_indexdef(c.oid) as definition, i.indisvalid as valid
           from pg_class c join pg_index i on i.indexrelid = c.oid where c.relname in ($1, $2) order by 1`,
        [textIndexName(key, 'short'), textIndexName(key, 'long')],
      );
    for (const key of Object.values(keys)) {
      const [short, long] = [textIndexName(key, 'short'), textIndexName(key, 'long')];
      expect(await definitions(key)).toEqual([
        {
          name: short,
          definition: expect.stringContaining(
            `(workspace_id, ((data -> '${key}'::text)), id) WHERE ((trashed_at IS NULL) AND (data ? '${key}'::text) AND (COALESCE(octet_length((data ->> '${key}'::text)), 0) <= 512))`,
          ),
          valid: true,
        },
        {
          name: long,
          definition: expect.stringContaining(
            `(workspace_id) WHERE ((trashed_at IS NULL) AND (data ? '${key}'::text) AND (octet_length((data ->> '${key}'::text)) > 512))`,
          ),
          valid: true,
        },
      ]);
    }
    // A field saved before its type had indexes, or whose build failed: the worker's task
    // (make_field_indexes) builds what is missing, and nothing when nothing is.
    await t.query(`drop index "${textIndexName(keys.URL, 'long')}"`);
    await t.query(`drop index "${textIndexName(keys.TEXT, 'short')}"`);
    expect(await makeFieldIndexes(t.db)).toBe(2);
    expect((await definitions(keys.URL)).map((d) => d.valid)).toEqual([true, true]);
    expect((await definitions(keys.TEXT)).map((d) => d.valid)).toEqual([true, true]);
    expect(await makeFieldIndexes(t.db)).toBe(0);
  });
});
