import type { Executor } from '@crm/db';
import type { RelationCardinality } from '@crm/db/schema';
import { loadFolder, loadFolderInTransaction } from '../folders/load-folder.ts';
import { isRelation, type RelationField } from '../folders/relation-fields.ts';
import type { FolderRow } from '../folders/serialize.ts';
import type { Actor } from '../shared/actor.ts';

/** One side of a relation: the field its records have, if any (a relation without an inverse has no `to` field). */
export interface RelationSide {
  folderId: string;
  key: string | null;
  /** `MANY` for a side without a field: any number of links may end there. */
  cardinality: RelationCardinality;
}

/**
 * A relation as links see it: its id, its two sides and the labels its links may carry
 * (docs/api.md, "Relations"). Built from the field a request names and, when it has an
 * inverse, the paired field of the target folder.
 */
export interface Relation {
  id: string;
  from: RelationSide;
  to: RelationSide;
  labels: string[] | undefined;
}

/**
 * Folders read once per call, with their fields: several links of one request often share
 * them. They are read in `tx`, and kept in the process's folder cache of `db` when given (the
 * server's handle, folders/folder-cache.ts), from which later calls take them without a
 * statement: a call that locks no folder sees them as the last committed change left them
 * either way.
 */
export class CallFolders {
  readonly #folders = new Map<string, Promise<FolderRow>>();
  constructor(
    private readonly tx: Executor,
    private readonly actor: Actor,
    private readonly db?: Executor,
  ) {}

  get(id: string): Promise<FolderRow> {
    let folder = this.#folders.get(id);
    if (!folder) {
      folder = this.db
        ? loadFolderInTransaction(this.tx, this.db, this.actor, id)
        : loadFolder(this.tx, this.actor, id);
      this.#folders.set(id, folder);
      folder.catch(() => this.#folders.delete(id));
    }
    return folder;
  }

  /** A folder the caller read already (share-locked, say): later reads take it as is. */
  put(folder: FolderRow): void {
    this.#folders.set(folder.id, Promise.resolve(folder));
  }
}

/** The relation of a RELATION field, both sides filled in from the field and its pair. */
export async function relationOf(field: RelationField, folders: CallFolders): Promise<Relation> {
  const def = field.relation;
  const here: RelationSide = { folderId: field.folderId, key: field.key, cardinality: def.cardinality };
  let there: RelationSide = { folderId: def.folderId, key: null, cardinality: 'MANY' };
  if (def.inverseKey !== undefined) {
    const target = await folders.get(def.folderId);
    const pair = target.fields.find((f) => f.key === def.inverseKey);
    if (pair && isRelation(pair) && pair.relation.id === def.id) {
      there = { folderId: target.id, key: pair.key, cardinality: pair.relation.cardinality };
    }
  }
  return def.side === 'from'
    ? { id: def.id, from: here, to: there, labels: def.labels }
    : { id: def.id, from: there, to: here, labels: def.labels };
}
