import type { schema } from '@crm/db';
import type { SavedViewOutput } from './schemas.ts';

export type SavedViewRow = typeof schema.savedViews.$inferSelect;

export function serializeSavedView(row: SavedViewRow): SavedViewOutput {
  return {
    id: row.id,
    folderId: row.folderId,
    name: row.name,
    definition: {
      columns: [...row.definition.columns],
      sort: row.definition.sort,
      filters: row.definition.filters.map((f) => ({
        field: f.field,
        op: f.op as SavedViewOutput['definition']['filters'][number]['op'],
        value: f.value,
      })),
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
