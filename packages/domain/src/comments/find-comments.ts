import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { findRecordItems } from '../records/find-record-items.ts';
import type { Actor } from '../shared/actor.ts';
import type { FindCommentsInput } from './schemas.ts';
import { serializeComment } from './serialize.ts';

/** A page of a live record's comments, oldest first (docs/api.md, "Comments and call logs"). */
export function findComments(db: Database, actor: Actor, input: FindCommentsInput) {
  return findRecordItems(db, actor, schema.comments, input, serializeComment);
}
