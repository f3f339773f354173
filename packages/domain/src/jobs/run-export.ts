import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { stringify } from 'csv-stringify/sync';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import { sideOf } from '../folders/relation-fields.ts';
import type { RecordOutput } from '../record-model/schemas.ts';
import { queryRecords } from '../records/query-records.ts';
import type { Actor } from '../shared/actor.ts';
import { writePart } from './job-files.ts';
import { JOB_LEASE_SECONDS, type JobRow, takeChunk } from './job-row.ts';
import { listInput } from './list-input.ts';
import type { createExportJobInput } from './schemas.ts';

/** Records read a page at a time (the list's largest page), and written a chunk of pages at a time. */
const PAGE = 200;
const PAGES_PER_CHUNK = 5;

type ExportParams = z.output<typeof createExportJobInput>;

/**
 * Runs an export from its checkpoint: the folder's matching records read page by page through
 * the list of `POST /records/query` (its filter, `q`, sort and cursor), a chunk of pages at a
 * time written as one part of the file, in the transaction that moves the checkpoint (the
 * cursor) past them: cut off anywhere, the file goes on from the last chunk that committed,
 * each record in it once (docs/jobs.md, "Exactly once"). Stops early when the job is no longer
 * RUNNING, and after the chunk that ends past `until` (`more`).
 */
export async function runExport(
  db: Database,
  job: JobRow,
  actor: Actor,
  until: number,
): Promise<'done' | 'stopped' | 'more'> {
  const params = job.params as unknown as ExportParams;
  const folder = await loadFolder(db, actor, params.folderId);
  const fields = exportedFields(folder.fields, params.fields);
  let cursor = job.checkpoint.cursor;
  let part = job.checkpoint.part ?? 0;
  let rows = job.checkpoint.row;
  const first = part === 0;
  for (;;) {
    const records: RecordOutput[] = [];
    let next: string | null = null;
    let total: number | undefined;
    for (let page = 0; page < PAGES_PER_CHUNK; page++) {
      const listed = await queryRecords(db, actor, {
        ...listInput(params, cursor ?? undefined, PAGE),
        ...(first && page === 0 && records.length === 0 && cursor === undefined ? { count: true } : {}),
      });
      records.push(...listed.data);
      total ??= listed.meta.total;
      next = listed.meta.nextCursor;
      cursor = next ?? undefined;
      if (!next) break;
    }
    const many = await manyValues(
      db,
      actor.workspaceId,
      fields,
      records.map((r) => r.id),
    );
    const text =
      params.format === 'csv'
        ? csvText(fields, records, many, part === 0)
        : records.map((r) => `${JSON.stringify(r)}\n`).join('');
    const before = rows;
    rows += records.length;
    const written = await db.transaction(async (tx) => {
      const j = schema.jobs;
      if (!(await takeChunk(tx, job, before))) return false;
      if (text !== '')
        await writePart(
          tx,
          { workspaceId: job.workspaceId, jobId: job.id },
          'output',
          part,
          Buffer.from(text),
        );
      await tx
        .update(j)
        .set({
          rowsRead: rows,
          ...(total !== undefined ? { total } : {}),
          checkpoint: { row: rows, part: text !== '' ? part + 1 : part, ...(next ? { cursor: next } : {}) },
          leasedUntil: sql`now() + make_interval(secs => ${JOB_LEASE_SECONDS})`,
        })
        .where(and(eq(j.workspaceId, job.workspaceId), eq(j.id, job.id)));
      return true;
    });
    if (!written) return 'stopped';
    if (text !== '') part++;
    if (!next) return 'done';
    if (Date.now() >= until) return 'more';
  }
}

/** The custom fields an export writes: those asked for, or every field of the folder, in the folder's order. */
function exportedFields(fields: readonly FieldDefinition[], asked: string[] | undefined): FieldDefinition[] {
  if (!asked) return [...fields];
  const keys = new Set(asked.map((name) => name.slice(5)));
  return fields.filter((field) => keys.has(field.key));
}

/** The ids each record links to through each MANY relation field (which `data` does not hold). */
async function manyValues(
  db: Executor,
  workspaceId: string,
  fields: FieldDefinition[],
  ids: string[],
): Promise<Map<string, Map<string, string[]>>> {
  const result = new Map<string, Map<string, string[]>>();
  const l = schema.recordLinks;
  for (const field of fields) {
    if (
      field.type !== 'RELATION' ||
      !field.relation ||
      field.relation.cardinality !== 'MANY' ||
      ids.length === 0
    )
      continue;
    const { self, other } = sideOf(field.relation);
    const selfColumn = self === 'from_id' ? l.fromId : l.toId;
    const otherColumn = other === 'from_id' ? l.fromId : l.toId;
    const links = await db
      .select({ record: selfColumn, linked: otherColumn })
      .from(l)
      .where(
        and(eq(l.workspaceId, workspaceId), eq(l.relationId, field.relation.id), inArray(selfColumn, ids)),
      )
      .orderBy(selfColumn, sql`${l.createdAt}`, otherColumn);
    const byRecord = new Map<string, string[]>();
    for (const link of links) byRecord.set(link.record, [...(byRecord.get(link.record) ?? []), link.linked]);
    result.set(field.key, byRecord);
  }
  return result;
}

const BASE_COLUMNS = ['id', 'title', 'email', 'phone', 'ownerId', 'createdAt', 'updatedAt'] as const;

/** A column's name for a field: its key, or `data.<key>` where the key is one of the record's own columns. */
function columnOf(field: Pick<FieldDefinition, 'key'>): string {
  return (BASE_COLUMNS as readonly string[]).includes(field.key) ? `data.${field.key}` : field.key;
}

/** Records as CSV rows (RFC 4180, csv-stringify), with the header row first when `header`. */
function csvText(
  fields: FieldDefinition[],
  records: RecordOutput[],
  many: Map<string, Map<string, string[]>>,
  header: boolean,
): string {
  const rows: unknown[][] = header ? [[...BASE_COLUMNS, ...fields.map(columnOf)]] : [];
  for (const record of records) {
    rows.push([
      record.id,
      record.title,
      record.email ?? '',
      record.phone ?? '',
      record.ownerId ?? '',
      record.createdAt,
      record.updatedAt,
      ...fields.map((field) => cellOf(field, record.data[field.key], many.get(field.key)?.get(record.id))),
    ]);
  }
  return rows.length === 0 ? '' : stringify(rows, { record_delimiter: '\r\n' });
}

/** A custom value as a CSV cell: lists joined by `;`, a ONE relation its record's id, nothing for none. */
function cellOf(field: FieldDefinition, value: unknown, linked: string[] | undefined): string {
  if (field.type === 'RELATION' && field.relation?.cardinality === 'MANY') return (linked ?? []).join(';');
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(';');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
