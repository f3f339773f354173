import type { Database } from '@crm/db';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { findRecordsInput } from '../record-model/schemas.ts';
import type { Actor } from '../shared/actor.ts';
import { findRecords } from './find-records.ts';

/**
 * `GET /records/export`: the list for a bulk export (the web app's CSV export, or an
 * integration's), page by page as `GET /records` pages it. Its first page, the start of an
 * export, is in the audit log with what was exported (docs/api.md, "Audit log").
 */
export async function exportRecords(db: Database, actor: Actor, input: z.output<typeof findRecordsInput>) {
  const page = await findRecords(db, actor, input);
  if (input.cursor === undefined && (input.page ?? 1) === 1) {
    await audit(db, actor, {
      action: 'records.exported',
      ...(input.folderId ? { target: { type: 'folder', id: input.folderId } } : {}),
      details: {
        folderId: input.folderId ?? null,
        filter: input.filter ?? null,
        search: input.search ?? input.q ?? null,
        sort: input.sort ?? null,
        trashed: input.trashed === 'true',
        ...(page.meta.total !== undefined ? { total: page.meta.total } : {}),
      },
    });
  }
  return page;
}
