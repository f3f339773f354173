import type { Database, Executor } from '@crm/db';
import { runNamedSql } from '@crm/db';
import type { HistorySubject } from '@crm/db/schema';
import { sql } from 'drizzle-orm';
import { updateDealInput } from '../deals/schemas.ts';
import { updateDeal } from '../deals/update-deal.ts';
import { loadFolder } from '../folders/load-folder.ts';
import { isRelation } from '../folders/relation-fields.ts';
import { updateRecordInput } from '../record-model/schemas.ts';
import { getRecord } from '../records/get-record.ts';
import { loadRecord } from '../records/load-record.ts';
import { updateRecord } from '../records/update-record.ts';
import { linkRecords } from '../relations/link-records.ts';
import { unlinkRecords } from '../relations/unlink-records.ts';
import type { Actor } from '../shared/actor.ts';
import { asDatabase } from '../shared/batch.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { updateTaskInput } from '../tasks/schemas.ts';
import { updateTask } from '../tasks/update-task.ts';
import { type HistoryRow, loadSubject } from './find-history.ts';
import type { RevertHistoryInput } from './schemas.ts';

/**
 * `POST /records/{id}/history/{entryId}/revert` and the deals' and tasks' (docs/api.md,
 * "History and provenance"): sets the entry's field back to its `from` value as a new change,
 * through the subject's own PATCH (or, for a MANY relation, its link or unlink), so the change
 * is checked, recorded in the history with the caller's provenance and announced as any other.
 * 409 when the field changed after the entry, unless `force=true`. The subject is locked first,
 * so no change slips between the check and the write. Answers the subject as it now is.
 * `subject` is the kind the route names (`/records/…`, `/deals/…`, `/tasks/…`).
 */
export async function revertHistoryEntry(
  db: Database,
  actor: Actor,
  input: RevertHistoryInput & { subject: HistorySubject },
): Promise<unknown> {
  const { subject } = input;
  return db.transaction(async (tx) => {
    await loadSubject(tx, actor, subject, input.id, { forUpdate: true });
    const [entry] = await runNamedSql<HistoryRow & Record<string, unknown>>(
      tx,
      'history_entry',
      sql`
      select id, at, field, from_value, to_value, actor_type, actor_id, actor_name, source, request_id
        from history
       where workspace_id = ${actor.workspaceId} and subject_id = ${input.id} and id = ${input.entryId}`,
    );
    if (!entry) throw notFound('History entry', input.entryId);
    const field = entry.field;
    const data = field.startsWith('data.') ? field.slice(5) : null;
    const many = subject === 'record' && data !== null && (await isManyRelation(tx, actor, input.id, data));
    // A MANY relation holds many links: what matters is whether this link changed since.
    const other = many ? ((entry.from_value ?? entry.to_value) as string) : null;
    const [newer] = await runNamedSql(
      tx,
      'history_changed_since',
      sql`
      select 1 as changed from history
       where workspace_id = ${actor.workspaceId} and subject_id = ${input.id} and field = ${field} and id > ${entry.id}
         and (${other}::text is null or from_value = to_jsonb(${other}::text) or to_value = to_jsonb(${other}::text))
       limit 1`,
    );
    if (newer && input.force !== 'true') {
      throw new DomainError(
        'CONFLICT',
        `${field} changed after ${entry.id}; read the history again, or send force=true to set it back anyway`,
        { details: [{ path: 'entryId', message: `${field} changed since this entry` }] },
      );
    }
    const inTx = asDatabase(tx);
    const from = entry.from_value ?? null;
    if (subject === 'record') {
      if (many && data !== null) return revertLink(inTx, actor, input.id, data, entry);
      if (data !== null) {
        return updateRecord(inTx, actor, updateRecordInput.parse({ id: input.id, data: { [data]: from } }));
      }
      return updateRecord(inTx, actor, updateRecordInput.parse({ id: input.id, [field]: from }));
    }
    if (subject === 'deal') {
      const change = data !== null ? { data: { [data]: from } } : { [field]: from };
      return updateDeal(inTx, actor, updateDealInput.parse({ id: input.id, ...change }));
    }
    return updateTask(inTx, actor, updateTaskInput.parse({ id: input.id, [field]: from }));
  });
}

/** Whether `key` is a MANY relation field of the record's folder. */
async function isManyRelation(tx: Executor, actor: Actor, id: string, key: string): Promise<boolean> {
  const record = await loadRecord(tx, actor, id);
  const folder = await loadFolder(tx, actor, record.folderId);
  const definition = folder.fields.find((f) => f.key === key);
  return definition !== undefined && isRelation(definition) && definition.relation.cardinality === 'MANY';
}

/** A MANY relation's entry: a link made is removed, a link removed is made again. */
async function revertLink(db: Database, actor: Actor, id: string, key: string, entry: HistoryRow) {
  const made = entry.from_value === null && typeof entry.to_value === 'string';
  const other = (made ? entry.to_value : entry.from_value) as string;
  const [outcome] = made
    ? await unlinkRecords(db, actor, [{ ok: true, input: { from: id, field: key, to: other } }])
    : await linkRecords(db, actor, [{ ok: true, input: { from: id, field: key, to: other } }]);
  // Unlinking what is no longer linked, or linking again what is linked, leaves it as it is.
  if (
    outcome &&
    !outcome.ok &&
    !(outcome.error instanceof DomainError && outcome.error.code === 'NOT_FOUND')
  ) {
    throw outcome.error;
  }
  return getRecord(db, actor, { id: id });
}
