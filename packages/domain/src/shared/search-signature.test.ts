import { closePool, createDatabase, createPool, type Database, schema } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import { findRecords } from '../records/find-records.ts';
import { searchWalk } from '../records/list-records.ts';
import { signSearchTexts } from '../records/sign-search-texts.ts';
import { updateRecord } from '../records/update-record.ts';
import type { Actor } from '../shared/actor.ts';
import { newWorkspace } from '../testing/fixtures.ts';
import { planRecorder } from '../testing/plans.ts';
import { SIGNATURE_BITS, searchSignature, signatureMayHold } from './search-signature.ts';

/**
 * The signature of a long search text (docs/performance.md, "Search"): it never leaves out a
 * text that holds the term, as PostgreSQL lower-cases and tests it, whatever the text's letters
 * (random texts with letters that fold into ASCII, or into two letters, or by context); it
 * leaves out most that do not; it is never older than its text (the trigger of migration 0028,
 * the worker's `sign_search_texts`); and a search's walk uses it to skip long texts on the index.
 */

let database: TestDatabase;
let pool: pg.Pool;
let db: Database;
let actor: Actor;
let people: string;
const defaults = { ...searchWalk };

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 4 });
  db = createDatabase(pool);
  const mine = await newWorkspace(db, 'Signed');
  actor = mine.actor;
  people = mine.peopleFolderId;
}, 60_000);

afterEach(() => {
  Object.assign(searchWalk, defaults);
});

afterAll(async () => {
  await closePool(pool);
  await database?.drop();
});

/** Whether PostgreSQL finds `term` in `text` lower-cased, and whether the signature of `signed` lets it through. */
async function asked(text: string, signed: string, term: string): Promise<{ holds: boolean; may: boolean }> {
  const test = signatureMayHold(sql`s.signature`, term) ?? sql`true`;
  const { rows } = await db.execute<{ holds: boolean; may: boolean }>(
    sql`select strpos(lower(${text}::text), lower(${term}::text)) > 0 as holds, ${test} as may
          from (select ${searchSignature(signed)}::bytea as signature) as s`,
  );
  return rows[0] ?? { holds: false, may: false };
}

/** Letters that fold in every way PostgreSQL and JavaScript may fold them. */
const LETTERS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .@-_%\n',
  'İ',
  'ı',
  '\u212a',
  'ß',
  'ẞ',
  'Σ',
  'ς',
  'é',
  'Ä',
  'ǅ',
  'Ω',
  '😀',
  '中',
];

describe('a search signature', () => {
  it('never leaves out a text that holds the term, made from the text as written or as stored', async () => {
    const textArb = fc
      .array(fc.constantFrom(...LETTERS), { minLength: 150, maxLength: 500 })
      .map((letters) => letters.join('').repeat(3));
    await fc.assert(
      fc.asyncProperty(
        textArb,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 12 }), fc.boolean()), {
          minLength: 1,
          maxLength: 4,
        }),
        async (text, picks) => {
          const { rows } = await pool.query<{ stored: string }>('select lower($1::text) as stored', [text]);
          const stored = rows[0]?.stored ?? '';
          for (const [at, length, upper] of picks) {
            // A piece of the text as stored (so that it is found), written in either case.
            const chars = [...stored];
            const start = at % chars.length;
            const piece = chars.slice(start, start + length).join('');
            const term = upper ? piece.toUpperCase() : piece;
            for (const signed of [text, stored]) {
              const { holds, may } = await asked(text, signed, term);
              if (holds)
                expect(may, JSON.stringify({ term, signed: signed === text ? 'written' : 'stored' })).toBe(
                  true,
                );
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('leaves out most long texts that do not hold a term of five letters or more', async () => {
    const words = [
      'lorem',
      'ipsum',
      'dolor',
      'sit',
      'amet',
      'renewal',
      'invoice',
      'meeting',
      'call',
      'notes',
    ];
    let random = 7;
    const next = () => {
      random = (random * 48271) % 2147483647;
      return random / 2147483647;
    };
    let through = 0;
    const texts = 200;
    for (let i = 0; i < texts; i++) {
      const text =
        Array.from({ length: 250 }, () => words[Math.floor(next() * words.length)]).join(' ') + ` ${i}`;
      const { holds, may } = await asked(text, text, 'gmail');
      expect(holds).toBe(false);
      if (may) through++;
    }
    // 2,048 bits, a few hundred pieces: one text in 100 or so at most lets `gmail` through.
    expect(through).toBeLessThan(texts / 50);
  });

  it('is kept for long texts alone, and not asked of terms without three letters or digits in a row, or not ASCII', () => {
    expect(searchSignature('Ada Lovelace\nada@example.com')).toBeNull();
    expect(searchSignature('x'.repeat(601))).toHaveLength(SIGNATURE_BITS / 8);
    expect(signatureMayHold(sql`s`, 'jo')).toBeUndefined();
    expect(signatureMayHold(sql`s`, 'a.b c')).toBeUndefined();
    expect(signatureMayHold(sql`s`, 'müller')).toBeUndefined();
    expect(signatureMayHold(sql`s`, 'joh')).toBeDefined();
    expect(signatureMayHold(sql`s`, 'a.joh')).toBeDefined();
  });
});

describe('the signature of a record', () => {
  const r = schema.records;
  const long = (word: string) => `${'lorem ipsum '.repeat(60)}${word}`;
  const signatureOf = async (id: string) =>
    (
      await db
        .select({ signature: r.searchSignature })
        .from(r)
        .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, id)))
    )[0]?.signature;

  it('is written with its text, cleared when a statement changes the text without it, and filled by the worker', async () => {
    const made = await createRecord(db, actor, { folderId: people, title: 'Signed', data: {} });
    const id = made.record.id;
    // A long text through the domain: signed at once.
    await updateRecord(db, actor, { id, title: long('Thorvaldsen') });
    expect(await signatureOf(id)).toEqual(searchSignature(long('thorvaldsen')));
    // A statement that changes the text alone (an earlier version, a folder's fields): cleared.
    await pool.query(`update records set search_text = lower($3) where workspace_id = $1 and id = $2`, [
      actor.workspaceId,
      id,
      long('Przybylski'),
    ]);
    expect(await signatureOf(id)).toBeNull();
    // Another column changed alone: the signature stays.
    await signSearchTexts(db);
    const signed = await signatureOf(id);
    expect(signed).toEqual(searchSignature(long('przybylski')));
    await pool.query(`update records set title = 'Renamed' where workspace_id = $1 and id = $2`, [
      actor.workspaceId,
      id,
    ]);
    expect(await signatureOf(id)).toEqual(signed);
    // Nothing left to sign; a short text has no signature.
    expect(await signSearchTexts(db)).toBe(0);
    await updateRecord(db, actor, { id, title: 'Short again' });
    expect(await signatureOf(id)).toBeNull();
    expect(await signSearchTexts(db)).toBe(0);
  });
});

describe('a search of long texts', () => {
  it('walks past the long texts that cannot match on the index, reading none of them', async () => {
    const { actor: other, peopleFolderId } = await newWorkspace(db, 'Long texts');
    // 600 records with notes of over 600 bytes: the newest 500 without `gmail`, the 100 before
    // them with it.
    await pool.query(
      `insert into records (workspace_id, id, folder_id, title, search_text, created_at)
       select $1, 'rec_long_' || n, $2, 'Person ' || n,
              lower('Person ' || n || E'\\n' || case when n <= 100 then 'p' || n || '@gmail.com' else 'p' || n || '@work.example.com' end
                    || E'\\n' || repeat('renewal call notes ', 40)),
              now() - ((600 - n) || ' minutes')::interval
         from generate_series(1, 600) n`,
      [other.workspaceId, peopleFolderId],
    );
    const plansOf = planRecorder(pool);
    // The walk's statement and the rest's (each reads the page's rows by key, `kept_by_list`).
    const reads = /kept_by_list/;
    // At most 50 records read from the table: unsigned, all 500 newest may match, so the walk
    // ends with none found and the rest is asked for.
    Object.assign(searchWalk, { rows: 2_000, reads: 50 });
    const before = await plansOf(() => findRecords(db, other, { q: 'gmail', pageSize: 10 }), reads, {
      analyze: true,
    });
    expect(before).toHaveLength(2);
    // Signed, the walk passes them on the index and finds the page.
    while ((await signSearchTexts(db)) > 0);
    const after = await plansOf(() => findRecords(db, other, { q: 'gmail', pageSize: 10 }), reads, {
      analyze: true,
    });
    expect(after).toHaveLength(1);
    expect(after[0]!.nodes).toContainEqual({
      type: 'Index Only Scan',
      index: 'records_live_created_idx',
      relation: 'records',
      executed: true,
    });
    const page = await findRecords(db, other, { q: 'gmail', pageSize: 10 });
    expect(page.data.map((record) => record.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Person ${100 - i}`),
    );
  });
});
