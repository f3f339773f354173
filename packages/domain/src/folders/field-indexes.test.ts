import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createFolder } from './create-folder.ts';
import { fieldIndexName, fieldStatisticsName } from './field-indexes.ts';

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
});
