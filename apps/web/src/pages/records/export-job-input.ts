import type { Inputs, Outputs } from '../../lib/query.ts';

// As model.ts names them; not imported from there, so that this module runs outside the browser too.
type Folder = Outputs['folders']['list']['data'][number];
type ViewDefinition = Outputs['views']['list']['data'][number]['definition'];
type ExportJobInput = Inputs['jobs']['createExport'];
type FilterNode = NonNullable<ExportJobInput['filter']>;

/**
 * An export job's input (`jobs.createExport`) for what the table shows: the view's filters as
 * the JSON filter of `POST /records/query` (all of them must hold, as in the list), its sort,
 * the search text as `q`, and the folder's fields among the view's columns. The job writes
 * every record they cover, not a page.
 */
export function exportJobInput({
  folder,
  view,
  search,
  format,
}: {
  folder: Folder;
  view: ViewDefinition;
  search: string;
  format: ExportJobInput['format'];
}): ExportJobInput {
  const conditions = view.filters.map(
    (f): FilterNode => ({
      field: f.field,
      op: f.op,
      // The list's spelling of a value is text; the JSON filter takes a list for `in` and a boolean for `empty`.
      value: f.op === 'in' ? f.value.split(',') : f.op === 'empty' ? f.value === 'true' : f.value,
    }),
  );
  const fields = view.columns.filter(
    (key) => key.startsWith('data.') && folder.fields.some((f) => `data.${f.key}` === key),
  );
  return {
    folderId: folder.id,
    format,
    fields,
    ...(conditions.length === 1 ? { filter: conditions[0] } : {}),
    ...(conditions.length > 1 ? { filter: { and: conditions } } : {}),
    ...(search ? { q: search } : {}),
    ...(view.sort ? { sort: view.sort } : {}),
  };
}
