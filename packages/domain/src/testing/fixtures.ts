import { randomUUID } from 'node:crypto';
import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase } from '@crm/db/testing';
import { expect } from 'vitest';
import { rightsOf } from '../api-keys/scopes.ts';
import { createFolder } from '../folders/create-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, type ErrorCode } from '../shared/errors.ts';
import { createWorkspace } from '../workspaces/create-workspace.ts';

/**
 * Shared helpers for the domain tests: a cloned database per test file and a fresh workspace
 * per test, so tests never see each other's rows.
 */
export interface TestDb {
  db: Database;
  /** Raw SQL for arranging state the domain cannot (moving timestamps back, foreign rows). */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  /**
   * Opens `connections` pool connections up front, so calls started together really run
   * together instead of being staggered by connection set-up (race tests need this).
   */
  warm(connections: number): Promise<void>;
  close(): Promise<void>;
}

export async function openTestDb(options: { max?: number } = {}): Promise<TestDb> {
  const testDb = await createTestDatabase();
  const pool = createPool({ connectionString: testDb.connectionString, max: options.max ?? 10 });
  return {
    db: createDatabase(pool),
    async query<Row>(text: string, params: unknown[] = []) {
      const result = await pool.query(text, params);
      return result.rows as Row[];
    },
    async warm(connections: number) {
      await Promise.all(Array.from({ length: connections }, () => pool.query('select pg_sleep(0.05)')));
    },
    async close() {
      await closePool(pool);
      await testDb.drop();
    },
  };
}

export interface TestWorkspace {
  actor: Actor;
  /** The default "People" folder. */
  peopleFolderId: string;
}

export async function newWorkspace(db: Database, name = 'Acme'): Promise<TestWorkspace> {
  const ownerName = `Owner ${name}`;
  const { workspaceId, userId } = await createWorkspace(db, {
    name,
    owner: { email: `owner-${randomUUID()}@example.com`, name: ownerName },
  });
  const actor: Actor = {
    workspaceId,
    userId,
    userName: ownerName,
    role: 'OWNER',
    apiKeyId: null,
    scopes: rightsOf('OWNER'),
    folderIds: null,
  };
  const folder = await db.query.folders.findFirst({
    where: (f, { eq }) => eq(f.workspaceId, workspaceId),
  });
  return { actor, peopleFolderId: folder!.id };
}

/** A folder with one field of every type, for custom value and search tests. */
export async function newFolderWithAllTypes(db: Database, actor: Actor, name = 'Contacts') {
  return createFolder(db, actor, {
    name,
    fields: [
      { key: 'company', label: 'Company', type: 'TEXT' },
      { key: 'stage', label: 'Stage', type: 'SELECT', options: ['Lead', 'Customer'] },
      { key: 'score', label: 'Score', type: 'NUMBER' },
      { key: 'vip', label: 'VIP', type: 'BOOLEAN' },
      { key: 'born', label: 'Born', type: 'DATE' },
      { key: 'work', label: 'Work email', type: 'EMAIL' },
      { key: 'site', label: 'Site', type: 'URL' },
      { key: 'tags', label: 'Tags', type: 'MULTI_SELECT', options: ['a', 'b', 'c'] },
    ],
  });
}

/** Awaits a promise that must reject with a DomainError of `code`, and returns the error. */
export async function expectDomainError(promise: Promise<unknown>, code: ErrorCode): Promise<DomainError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a DomainError ${code}, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
  return error as DomainError;
}

/** Same for a synchronous call. */
export function expectDomainErrorSync(run: () => unknown, code: ErrorCode): DomainError {
  let caught: unknown;
  try {
    run();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(DomainError);
  expect((caught as DomainError).code).toBe(code);
  return caught as DomainError;
}

/**
 * Numbers in [0, 1) from a seed (mulberry32): the same seed gives the same data, so a property
 * test that fails prints its seed and can be run again on it.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** One page of a list, as the lists answer it. */
interface ListPage {
  data: { id: string }[];
  meta: { nextCursor: string | null };
}

/**
 * Every id of a list, page by page through its cursor: `read` asks for the page after `cursor`
 * (the first without one). Each page must hold an id at most once; more than `maxPages` pages
 * is an error (a cursor that does not move on).
 */
export async function everyPage(
  read: (cursor: string | undefined) => Promise<ListPage>,
  maxPages = 2_000,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await read(cursor);
    const onPage = page.data.map((r) => r.id);
    expect(new Set(onPage).size).toBe(onPage.length);
    ids.push(...onPage);
    if (!page.meta.nextCursor) return ids;
    cursor = page.meta.nextCursor;
  }
  throw new Error(`more than ${maxPages} pages`);
}
