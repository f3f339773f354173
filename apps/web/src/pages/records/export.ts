import { toCsv } from '../../lib/csv.ts';
import { trpc } from '../../lib/trpc.ts';
import {
  type Column,
  expandOf,
  exportText,
  listInput,
  type Member,
  type RecordItem,
  type ViewDefinition,
} from './model.ts';

/** Rows asked for at a time: the largest page the list gives. */
const EXPORT_PAGE = 200;

/**
 * The rows of a view as CSV: its columns in its order (their labels as the header), every page
 * of its sort, filters and search, walked by cursor; a ONE relation as the linked record's
 * title, which the import reads back "by title". A relation to several records is left out:
 * its links are not in the list's rows, and the import does not take them. `onProgress`
 * hears the rows read so far.
 */
export async function exportView({
  folderId,
  view,
  search,
  columns: shown,
  members,
  onProgress,
}: {
  folderId: string;
  view: ViewDefinition;
  search: string;
  columns: Column[];
  members: Member[];
  onProgress?: (rows: number) => void;
}): Promise<{ csv: string; rows: number }> {
  const columns = shown.filter((c) => !c.many);
  const records: RecordItem[] = [];
  let cursor: string | undefined;
  do {
    // Through the export read, so the export is in the audit log (docs/api.md, "Audit log").
    const page = await trpc.records.export.query(
      listInput(folderId, view, search, cursor, EXPORT_PAGE, expandOf(columns)),
    );
    records.push(...page.data);
    cursor = page.meta.nextCursor ?? undefined;
    onProgress?.(records.length);
  } while (cursor);
  const header = columns.map((c) => c.label);
  const lines = records.map((record) => columns.map((c) => exportText(record, c, members)));
  return { csv: toCsv([header, ...lines]), rows: records.length };
}
