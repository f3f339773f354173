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
  'RELATION',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export const relationCardinalities = ['ONE', 'MANY'] as const;
export type RelationCardinality = (typeof relationCardinalities)[number];

/**
 * What a RELATION field links to (docs/api.md, "Relations"). Both fields of a pair (a field
 * and its inverse) carry the same `id`, one as the `from` side of the links and the other as
 * the `to` side (record_links); a field without an inverse is a `from` side alone.
 */
export interface RelationDefinition {
  /** The folder of the linked records. */
  folderId: string;
  cardinality: RelationCardinality;
  /** The labels a link may carry; none means links carry no label. */
  labels?: string[];
  /** The relation's id (`relationId` of its links), the same on both fields of a pair. */
  id: string;
  side: 'from' | 'to';
  /** The key of the paired field in `folderId`, when the relation has an inverse. */
  inverseKey?: string;
}

/** One custom field of a folder: the `key` is the key used inside record `data`. */
export interface FieldDefinition {
  key: string;
  label: string;
  type: FieldType;
  /** Allowed values of SELECT and MULTI_SELECT fields. */
  options?: string[];
  /** A RELATION field's target, cardinality and labels. */
  relation?: RelationDefinition;
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
