import type { FieldDefinition, RelationDefinition } from '@crm/db/schema';
import { DomainError, invalid } from '../shared/errors.ts';
import type { FolderRow } from './serialize.ts';

/** A RELATION field with its definition, as the link code reads it. */
export interface RelationField {
  /** The folder that has the field. */
  folderId: string;
  key: string;
  label: string;
  relation: RelationDefinition;
}

/**
 * One side of a relation's links as a field sees them: its records are in `self` of
 * record_links, the records they link to in `other` (docs/api.md, "Relations").
 */
export interface LinkSide {
  self: 'from_id' | 'to_id';
  other: 'from_id' | 'to_id';
}

export function sideOf(relation: RelationDefinition): LinkSide {
  return relation.side === 'from' ? { self: 'from_id', other: 'to_id' } : { self: 'to_id', other: 'from_id' };
}

export function isRelation(
  field: FieldDefinition,
): field is FieldDefinition & { relation: RelationDefinition } {
  return field.type === 'RELATION' && field.relation !== undefined;
}

/** The RELATION fields of a folder. */
function relationFieldsOf(folder: Pick<FolderRow, 'id' | 'fields'>): RelationField[] {
  return folder.fields.filter(isRelation).map((f) => ({
    folderId: folder.id,
    key: f.key,
    label: f.label,
    relation: f.relation,
  }));
}

/** The ONE fields of a folder, by key: the relation values `data` holds. */
export function oneFieldsOf(folder: Pick<FolderRow, 'id' | 'fields'>): Map<string, RelationField> {
  return new Map(
    relationFieldsOf(folder)
      .filter((f) => f.relation.cardinality === 'ONE')
      .map((f) => [f.key, f]),
  );
}

/**
 * The RELATION field `key` of a folder. `path` names the input a wrong key came in: an
 * unknown key there is a 400 naming it (a body's `field`), or, without `path`, a 404 (a path
 * segment).
 */
export function relationFieldOf(
  folder: Pick<FolderRow, 'id' | 'name' | 'fields'>,
  key: string,
  path?: string,
): RelationField {
  const field = folder.fields.find((f) => f.key === key);
  if (field && isRelation(field)) {
    return { folderId: folder.id, key: field.key, label: field.label, relation: field.relation };
  }
  const problem = field
    ? `${key} is a ${field.type} field of folder ${folder.name}, not a RELATION field`
    : `folder ${folder.name} has no field ${key}`;
  if (path) throw invalid(path, problem);
  throw new DomainError('NOT_FOUND', `Relation field ${key} not found: ${problem}`);
}

/** A link in the form of its row: the `from` and `to` side's records of relation `relationId`. */
export interface LinkKey {
  relationId: string;
  fromId: string;
  toId: string;
}

/** The link between a record and one it names through `field`, as its row holds it. */
export function linkKeyOf(field: RelationField, selfId: string, otherId: string): LinkKey {
  return field.relation.side === 'from'
    ? { relationId: field.relation.id, fromId: selfId, toId: otherId }
    : { relationId: field.relation.id, fromId: otherId, toId: selfId };
}
