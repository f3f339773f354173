import type { schema } from '@crm/db';
import type { FolderOutput } from './schemas.ts';

export type FolderRow = typeof schema.folders.$inferSelect;

export function serializeFolder(row: FolderRow): FolderOutput {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    fields: row.fields.map((f) =>
      f.options
        ? { key: f.key, label: f.label, type: f.type, options: f.options }
        : { key: f.key, label: f.label, type: f.type },
    ),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
