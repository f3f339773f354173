import { missing } from '@crm/domain';
import type pg from 'pg';
import type { SearchTerm } from './data.ts';
import { round } from './time.ts';

const RECORD_COLUMNS =
  '"workspace_id", "id", "folder_id", "title", "email", "phone", "data", "owner_id", "search_text", ' +
  '"created_at", "updated_at", "trashed_at"';

/** The statement findRecords sends for a plain list (pageSize 50 → limit 51), as drizzle writes it. */
export const LIST_SQL =
  `select ${RECORD_COLUMNS} from "records" where ("records"."workspace_id" = $1 and ` +
  '"records"."trashed_at" is null) order by "records"."created_at" desc, "records"."id" desc limit $2';

/** The statement findTasks sends for status=OPEN&sort=dueAt&pageSize=50, as drizzle writes it. */
export const TASKS_BY_DUE_SQL =
  'select "workspace_id", "id", "title", "due_at", "assignee_id", "record_id", "status", "priority", "type", ' +
  '"recurrence", "completed_at", "created_at", "updated_at" from "tasks" where ("tasks"."workspace_id" = $1 and ' +
  '"tasks"."status" = $2) order by "tasks"."due_at" asc nulls last, "tasks"."id" asc limit $3';

export interface PlanSummary {
  /** What was explained, e.g. `q="son"` or `list`. */
  statement: string;
  kind: SearchTerm['kind'] | 'list' | 'tasks' | 'list-query' | 'relation';
  /** Rows of the workspace the statement's filter matches (before the limit). */
  matchingRows: number;
  /** The top node and the one under it, e.g. `Limit <- Sort`. */
  topNode: string;
  executionMs: number;
  planningMs: number;
  indexesUsed: string[];
  usesSearchIndex: boolean;
  /** One line per plan node, indented like EXPLAIN's text format. */
  outline: string[];
  /** The statement and its parameters as the service sent them (list queries and relations, from its SQL trace). */
  sql?: { text: string; values: unknown[] };
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Total Time'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Rows Removed by Filter'?: number;
  'Sort Key'?: string[];
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

interface ExplainRow {
  'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }];
}

function describe(node: PlanNode): string {
  const on = node['Index Name']
    ? ` using ${node['Index Name']}`
    : node['Relation Name']
      ? ` on ${node['Relation Name']}`
      : '';
  const loops = (node['Actual Loops'] ?? 1) > 1 ? ` x ${node['Actual Loops']} loops` : '';
  const removed = node['Rows Removed by Filter']
    ? `, removed by filter ${node['Rows Removed by Filter']}`
    : '';
  const buffers = `buffers hit ${node['Shared Hit Blocks'] ?? 0} read ${node['Shared Read Blocks'] ?? 0}`;
  const cond = node['Index Cond'] ?? node['Recheck Cond'];
  const key = node['Sort Key'] ? ` [by ${node['Sort Key'].join(', ')}]` : '';
  return (
    `${node['Node Type']}${on} (${round(node['Actual Total Time'] ?? 0, 2)} ms, rows ${node['Actual Rows'] ?? 0}` +
    `${loops}${removed}, ${buffers})${cond ? ` [${cond}]` : ''}${key}`
  );
}

/** EXPLAIN (ANALYZE, BUFFERS) of one statement, summarised. */
export async function explain(
  pool: pg.Pool,
  sql: string,
  params: unknown[],
): Promise<Omit<PlanSummary, 'statement' | 'kind' | 'matchingRows'>> {
  const result = await pool.query<ExplainRow>(`explain (analyze, buffers, format json) ${sql}`, params);
  const doc = (result.rows[0] ?? missing('result.rows[0]'))['QUERY PLAN'][0];
  const outline: string[] = [];
  const indexes = new Set<string>();
  const walk = (node: PlanNode, depth: number) => {
    if (node['Index Name']) indexes.add(node['Index Name']);
    outline.push(`${'  '.repeat(depth)}${describe(node)}`);
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(doc.Plan, 0);
  const top = doc.Plan;
  const below = top.Plans?.[0];
  return {
    topNode: `${top['Node Type']}${below ? ` <- ${below['Node Type']}` : ''}`,
    executionMs: round(doc['Execution Time'], 2),
    planningMs: round(doc['Planning Time'], 2),
    indexesUsed: [...indexes],
    usesSearchIndex: indexes.has('records_search_idx'),
    outline,
  };
}

/** The service's plain list statement (GET /records?pageSize=50). */
export async function explainList(pool: pg.Pool, workspaceId: string): Promise<PlanSummary> {
  const counted = await pool.query<{ n: string }>(
    'select count(*) as n from records where workspace_id = $1 and trashed_at is null',
    [workspaceId],
  );
  return {
    statement: 'list pageSize=50',
    kind: 'list',
    matchingRows: Number((counted.rows[0] ?? missing('counted.rows[0]')).n),
    ...(await explain(pool, LIST_SQL, [workspaceId, 51])),
  };
}

/** The service's task list statement (GET /tasks?status=OPEN&sort=dueAt&pageSize=50). */
export async function explainTasks(pool: pg.Pool, workspaceId: string): Promise<PlanSummary> {
  const counted = await pool.query<{ n: string }>(
    "select count(*) as n from tasks where workspace_id = $1 and status = 'OPEN'",
    [workspaceId],
  );
  return {
    statement: 'tasks status=OPEN sort=dueAt pageSize=50',
    kind: 'tasks',
    matchingRows: Number((counted.rows[0] ?? missing('counted.rows[0]')).n),
    ...(await explain(pool, TASKS_BY_DUE_SQL, [workspaceId, 'OPEN', 51])),
  };
}
