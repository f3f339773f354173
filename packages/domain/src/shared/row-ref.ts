/**
 * A row of a tenant table named by a job or a caller: its id and, for every job queued by this
 * version, its workspace, which the lookup then leads with (the table's key, and its shard:
 * docs/scaling.md). Jobs queued by earlier versions carry the id alone; those rows are found
 * by id.
 */
export interface RowRef {
  id: string;
  workspaceId?: string | undefined;
}
