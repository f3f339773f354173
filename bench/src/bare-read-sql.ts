/**
 * The bare server's copies of the service's reads, as drizzle renders the domain's queries,
 * word for word. They are built with the ORM in the domain, so they cannot be imported;
 * `bare-sql.test.ts` holds each against the statement the domain sends, and the benchmark's
 * parity check against what the service sends under load.
 */

/** Read as arrays: the key's name and its user's are both `name` (KEY_COLUMNS gives the order). */
export const AUTH_SQL =
  'select "api_keys"."id", "api_keys"."name", "api_keys"."workspace_id", "api_keys"."user_id", "api_keys"."scopes", ' +
  '"api_keys"."folder_ids", "api_keys"."expires_at", "api_keys"."revoked_at", "api_keys"."last_used_at", "users"."name", ' +
  '"memberships"."role", "workspaces"."rate_limit_per_minute" from "api_keys" ' +
  'inner join "workspaces" on "workspaces"."id" = "api_keys"."workspace_id" ' +
  'inner join "users" on "users"."id" = "api_keys"."user_id" ' +
  'inner join "memberships" on ("memberships"."workspace_id" = "api_keys"."workspace_id" and ' +
  '"memberships"."user_id" = "api_keys"."user_id") where "api_keys"."secret_hash" = $1';

/** What reads of records select: every column but search_text, as the domain's recordColumns. */
const READ_RECORD_COLUMNS =
  '"workspace_id", "id", "folder_id", "title", "email", "phone", "data", "owner_id", ' +
  '"created_at", "updated_at", "trashed_at"';

/** GET one by the primary key alone; a trashed record is answered 404 from its row. */
export const GET_RECORD_SQL =
  `select ${READ_RECORD_COLUMNS} from "records" where ("records"."workspace_id" = $1 and ` +
  '"records"."id" = $2)';

export const LIST_RECORDS_SQL =
  `select ${READ_RECORD_COLUMNS} from "records" where ("records"."workspace_id" = $1 and ` +
  '"records"."trashed_at" is null) order by "records"."created_at" desc, "records"."id" desc limit $2';

/** loadFolder's read without a lock, sent when the folder is not kept in memory yet. */
export const FOLDER_SQL =
  'select "workspace_id", "id", "name", "type", "fields", "created_at", "updated_at" from "folders" ' +
  'where ("folders"."workspace_id" = $1 and "folders"."id" = $2)';

/** The floor's create: the record's insert alone (no folder check, no event). */
export const INSERT_RECORD_ALONE_SQL =
  'insert into "records" (workspace_id, id, folder_id, title, email, phone, data, owner_id, search_text) ' +
  'values ($1, $2, $3, $4, $5, $6, $7::jsonb, null, lower($8::text)) returning created_at, updated_at';

const TASK_COLUMNS =
  '"workspace_id", "id", "title", "due_at", "assignee_id", "record_id", "status", "priority", "type", ' +
  '"recurrence", "completed_at", "created_at", "updated_at"';

/** findTasks' page of tasks of one status, soonest due first. */
export const TASKS_BY_DUE_SQL =
  `select ${TASK_COLUMNS} from "tasks" where ("tasks"."workspace_id" = $1 and "tasks"."status" = $2) ` +
  'order by "tasks"."due_at" asc nulls last, "tasks"."id" asc limit $3';
