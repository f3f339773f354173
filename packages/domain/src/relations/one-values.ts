import type { Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
import { linkKeyOf, oneFieldsOf } from '../folders/relation-fields.ts';
import type { FolderRow } from '../folders/serialize.ts';
import type { Actor } from '../shared/actor.ts';
import { relationReference } from '../shared/custom-values.ts';
import { DomainError, type ErrorDetail } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { applyLinkChanges, type LinkChange } from './apply-link-changes.ts';
import { CallFolders, relationOf } from './relation.ts';

/** A record's custom values as a write gives them, checked but for what needs the database. */
export interface ValuesToResolve {
  folder: FolderRow;
  data: Record<string, unknown>;
}

/**
 * Turns the ONE relation values of each write's `data` (an id, `{ "email" }` or `{ "title" }`)
 * into the id of the live record of the field's folder they name, in place, with one
 * statement for all of them (docs/api.md, "Relations"). Returns, per write, null or its 400
 * naming every field that names no record, several, or a record that is not a live record
 * of that folder in this workspace (the message never tells whether an id exists elsewhere).
 */
export async function resolveOneValues(
  tx: Executor,
  actor: Actor,
  writes: ValuesToResolve[],
  folders = new CallFolders(tx, actor),
): Promise<(DomainError | null)[]> {
  const refs: { i: number; key: string; folder: string; by: 'id' | 'email' | 'title'; v: string }[] = [];
  writes.forEach(({ folder, data }, i) => {
    const ones = oneFieldsOf(folder);
    for (const [key, value] of Object.entries(data)) {
      const field = ones.get(key);
      if (!field || value === null) continue;
      const ref = relationReference(value);
      // The checks of custom values refused anything else already.
      if (ref) refs.push({ i, key, folder: field.relation.folderId, by: ref.by, v: ref.value });
    }
  });
  const problems: ErrorDetail[][] = writes.map(() => []);
  if (refs.length === 0) return problems.map(() => null);
  const matches = await matchReferences(tx, actor.workspaceId, refs);
  for (const [n, ref] of refs.entries()) {
    const found = matches.get(n) ?? [];
    const write = writes[ref.i] ?? missing('writes[ref.i]');
    if (found.length === 1) {
      write.data[ref.key] = found[0];
      continue;
    }
    const target = (await folders.get(ref.folder).catch(() => null))?.name ?? ref.folder;
    (problems[ref.i] ?? missing('problems[ref.i]')).push({
      path: `data.${ref.key}`,
      message: referenceProblem({ by: ref.by, value: ref.v }, target, found.length),
    });
  }
  return problems.map((details) =>
    details.length === 0
      ? null
      : new DomainError(
          'VALIDATION_FAILED',
          `Invalid relation values: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
          { details },
        ),
  );
}

/** `resolveOneValues` for one write: throws its 400. */
export async function resolveOneValuesOf(
  tx: Executor,
  actor: Actor,
  folder: FolderRow,
  data: Record<string, unknown>,
): Promise<void> {
  const [problem] = await resolveOneValues(tx, actor, [{ folder, data }]);
  if (problem) throw problem;
}

/** Why a reference to a record of `folder` named no record (matched 0) or several. */
export function referenceProblem(
  ref: { by: string; value: string },
  folder: string,
  matched: number,
): string {
  if (ref.by === 'id') return `${ref.value} is not a live record of folder ${folder}`;
  const what = `the ${ref.by} ${JSON.stringify(ref.value)}`;
  return matched === 0
    ? `no live record of folder ${folder} has ${what}`
    : `several live records of folder ${folder} have ${what}; give the id of one`;
}

/**
 * For each reference, by its position, the ids of the live records of its folder it matches
 * (two at most: enough to tell one from several). An email matches case-insensitively, a
 * title exactly; each form reads through its index.
 */
export async function matchReferences(
  tx: Executor,
  ws: string,
  refs: { folder: string; by: 'id' | 'email' | 'title'; v: string }[],
): Promise<Map<number, string[]>> {
  const of = (by: string) =>
    JSON.stringify(refs.flatMap((r, n) => (r.by === by ? [{ n, folder: r.folder, v: r.v }] : [])));
  // By id: by the primary key alone, the folder and Trash checked on the row found (`live`),
  // as loadInWorkspace does; by email or title, through the index of each.
  const { rows } = await tx.execute<{ n: number; id: string; live: boolean }>(sql`
    select k.n, m.id, m.live from jsonb_to_recordset(${of('id')}::jsonb) as k(n int, folder text, v text)
      cross join lateral (
        select r.id, r.folder_id = k.folder and r.trashed_at is null as live from records r
         where r.workspace_id = ${ws} and r.id = k.v) as m
    union all
    select k.n, m.id, true from jsonb_to_recordset(${of('email')}::jsonb) as k(n int, folder text, v text)
      cross join lateral (
        select r.id from records r
         where r.workspace_id = ${ws} and r.folder_id = k.folder and lower(r.email) = lower(k.v)
           and r.email is not null and r.trashed_at is null
         limit 2) as m
    union all
    select k.n, m.id, true from jsonb_to_recordset(${of('title')}::jsonb) as k(n int, folder text, v text)
      cross join lateral (
        select r.id from records r
         where r.workspace_id = ${ws} and r.title = k.v and r.folder_id = k.folder and r.trashed_at is null
         limit 2) as m`);
  const matches = new Map<number, string[]>();
  for (const row of rows) if (row.live) matches.set(row.n, [...(matches.get(row.n) ?? []), row.id]);
  return matches;
}

/** A record's ONE values as a write left them: the keys it wrote, each an id or null (removed). */
export interface WrittenOneValues {
  recordId: string;
  folder: FolderRow;
  values: Record<string, string | null>;
}

/**
 * The links that ONE values written into `data` stand for (docs/api.md, "Relations"): after a
 * create or a PATCH has written its row and its `record.updated` or `record.created` event,
 * each value given makes its link (replacing the field's previous one) and each value removed
 * clears it, with `record.linked` / `record.unlinked` and the inverse ONE values of one-to-one
 * relations. Returns the error of the first write whose links fail (a field at its limit, a
 * linked record gone to Trash meanwhile), which the caller answers: its transaction then
 * writes nothing.
 */
export async function linkWrittenValues(
  tx: Executor,
  actor: Actor,
  written: WrittenOneValues[],
  folders = new CallFolders(tx, actor),
): Promise<DomainError | null> {
  const changes: LinkChange[] = [];
  const paths: string[] = [];
  const dataWritten = new Set<string>();
  for (const { recordId, folder, values } of written) {
    folders.put(folder);
    const ones = oneFieldsOf(folder);
    for (const [key, value] of Object.entries(values)) {
      const field = ones.get(key);
      if (!field) continue;
      const relation = await relationOf(field, folders);
      dataWritten.add(`${recordId} ${key}`);
      paths.push(`data.${key}`);
      if (value === null) {
        changes.push({ op: 'clear', relation, side: field.relation.side, recordId });
      } else {
        const { fromId, toId } = linkKeyOf(field, recordId, value);
        changes.push({ op: 'link', relation, fromId, toId });
      }
    }
  }
  if (changes.length === 0) return null;
  const outcomes = await applyLinkChanges(tx, actor, changes, { dataWritten });
  for (const [n, outcome] of outcomes.entries()) {
    if (outcome.ok) continue;
    const path = paths[n] ?? missing('paths[n]');
    const message = outcome.error.details?.[0]?.message ?? outcome.error.message;
    return new DomainError(outcome.error.code, `${path}: ${message}`, { details: [{ path, message }] });
  }
  return null;
}

/** The ONE values among custom values (as stored: ids, or null for a removed key). */
export function oneValuesIn(folder: FolderRow, data: Record<string, unknown>): Record<string, string | null> {
  const ones = oneFieldsOf(folder);
  const values: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(data)) {
    if (ones.has(key)) values[key] = typeof value === 'string' ? value : null;
  }
  return values;
}
