import { jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns.ts';
import { workspaces } from './workspaces.ts';

export const folderTypes = ['CUSTOM'] as const;
export const fieldTypes = [
  'TEXT',
  'SELECT',
  'NUMBER',
  'BOOLEAN',
  'DATE',
  'EMAIL',
  'URL',
  'MULTI_SELECT',
] as const;
export type FieldType = (typeof fieldTypes)[number];

/** One custom field of a folder: the `key` is the key used inside record `data`. */
export interface FieldDefinition {
  key: string;
  label: string;
  type: FieldType;
  /** Allowed values of SELECT and MULTI_SELECT fields. */
  options?: string[];
}

export const folders = pgTable(
  'folders',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text().notNull(),
    name: text().notNull(),
    type: text({ enum: folderTypes }).notNull().default('CUSTOM'),
    /** Field definitions in display order. Kept with the folder so a change is one row write. */
    fields: jsonb().$type<FieldDefinition[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: 'folders_pkey', columns: [t.workspaceId, t.id] })],
);
