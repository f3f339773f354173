import type { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import type { z } from 'zod';
import type { FolderOutput, fieldDefinitionOutput } from './schemas.ts';

type FieldDefinitionOutput = z.infer<typeof fieldDefinitionOutput>;

export type FolderRow = typeof schema.folders.$inferSelect;

function serializeField(f: FieldDefinition): FieldDefinitionOutput {
  if (f.relation) {
    const { folderId, cardinality, labels, inverseKey } = f.relation;
    return {
      key: f.key,
      label: f.label,
      type: f.type,
      relation: { folderId, cardinality, ...(labels ? { labels } : {}), inverseKey: inverseKey ?? null },
    };
  }
  return f.options
    ? { key: f.key, label: f.label, type: f.type, options: f.options }
    : { key: f.key, label: f.label, type: f.type };
}

export function serializeFolder(row: FolderRow): FolderOutput {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    fields: row.fields.map(serializeField),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
