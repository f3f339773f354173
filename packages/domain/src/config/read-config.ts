import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { and, asc, eq } from 'drizzle-orm';
import type { FolderRow } from '../folders/serialize.ts';
import type { Actor } from '../shared/actor.ts';
import type { SavedViewRow } from '../views/serialize.ts';
import type { WebhookRow } from '../webhooks/serialize.ts';
import { serializeWebhook } from '../webhooks/serialize.ts';
import { actionsToRefs, type Names, refOf } from './refs.ts';
import {
  CONFIG_VERSION,
  type ConfigDocument,
  type ConfigField,
  type ConfigView,
  type ConfigWebhook,
  type ConfigWorkflow,
} from './schemas.ts';

type PipelineRow = typeof schema.pipelines.$inferSelect;
type StageRow = typeof schema.stages.$inferSelect;
type WorkflowRow = typeof schema.workflows.$inferSelect;

/** The workspace's configuration as a document, and the rows behind each of its parts. */
export interface ConfigState {
  document: ConfigDocument;
  names: Names;
  /** The rows, in the document's order of each kind. */
  folders: FolderRow[];
  pipelines: { row: PipelineRow; stages: StageRow[] }[];
  workflows: WorkflowRow[];
  webhooks: WebhookRow[];
  views: SavedViewRow[];
  /** Members by email (lower case): the ids `{ "$user": email }` names. */
  members: Map<string, string>;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Reads the configuration of the caller's workspace (docs/operations.md, "Configuration as
 * code"). Each kind is in an order that depends on the configuration alone (names, then
 * content), never on ids or times, so that the same configuration exports the same document
 * in any workspace.
 */
export async function readConfig(db: Executor, actor: Actor): Promise<ConfigState> {
  const ws = actor.workspaceId;
  const f = schema.folders;
  const p = schema.pipelines;
  const s = schema.stages;
  const w = schema.workflows;
  const h = schema.webhooks;
  const v = schema.savedViews;
  const m = schema.memberships;
  const u = schema.users;
  // One statement after another: within a transaction they share one connection.
  const folderRows = await db.select().from(f).where(eq(f.workspaceId, ws));
  const pipelineRows = await db.select().from(p).where(eq(p.workspaceId, ws));
  const stageRows = await db
    .select()
    .from(s)
    .where(eq(s.workspaceId, ws))
    .orderBy(asc(s.pipelineId), asc(s.position));
  const workflowRows = await db.select().from(w).where(eq(w.workspaceId, ws));
  const webhookRows = await db.select().from(h).where(eq(h.workspaceId, ws));
  const viewRows = await db
    .select()
    .from(v)
    .where(and(eq(v.workspaceId, ws), eq(v.userId, actor.userId)));
  const memberRows = await db
    .select({ id: u.id, email: u.email })
    .from(m)
    .innerJoin(u, eq(u.id, m.userId))
    .where(eq(m.workspaceId, ws));
  // Sorted here rather than by SQL: byte order, whatever the database's collation.
  folderRows.sort((a, b) => byText(a.name, b.name) || byText(a.id, b.id));
  pipelineRows.sort((a, b) => byText(a.name, b.name) || byText(a.id, b.id));

  const names: Names = {
    folders: new Map(folderRows.map((row) => [row.id, row.name])),
    pipelines: new Map(pipelineRows.map((row) => [row.id, row.name])),
    stages: new Map(),
    users: new Map(memberRows.map((row) => [row.id, row.email])),
  };
  const stagesByPipeline = new Map<string, StageRow[]>();
  for (const stage of stageRows) {
    const list = stagesByPipeline.get(stage.pipelineId) ?? [];
    list.push(stage);
    stagesByPipeline.set(stage.pipelineId, list);
    const pipelineName = names.pipelines.get(stage.pipelineId);
    if (pipelineName !== undefined) names.stages.set(stage.id, [pipelineName, stage.name]);
  }

  const workflows = workflowRows
    .map((row) => ({ row, doc: workflowDoc(row, names) }))
    .sort((a, b) => byText(a.doc.name, b.doc.name) || byText(JSON.stringify(a.doc), JSON.stringify(b.doc)));
  const webhooks = webhookRows
    .map((row) => ({ row, doc: webhookDoc(row) }))
    .sort((a, b) => byText(a.doc.url, b.doc.url) || byText(JSON.stringify(a.doc), JSON.stringify(b.doc)));
  const views = viewRows
    .map((row) => ({ row, doc: viewDoc(row, names) }))
    .sort(
      (a, b) =>
        byText(a.doc.folder, b.doc.folder) ||
        byText(a.doc.name.toLowerCase(), b.doc.name.toLowerCase()) ||
        byText(a.doc.name, b.doc.name),
    );

  const pipelines = pipelineRows.map((row) => ({ row, stages: stagesByPipeline.get(row.id) ?? [] }));
  return {
    document: {
      version: CONFIG_VERSION,
      folders: folderRows.map((row) => ({
        name: row.name,
        fields: row.fields.map((field) => fieldDoc(field, names)),
      })),
      pipelines: pipelines.map(({ row, stages }) => ({
        name: row.name,
        stages: stages.map((st) => st.name),
      })),
      workflows: workflows.map((x) => x.doc),
      webhooks: webhooks.map((x) => x.doc),
      views: views.map((x) => x.doc),
    },
    names,
    folders: folderRows,
    pipelines,
    workflows: workflows.map((x) => x.row),
    webhooks: webhooks.map((x) => x.row),
    views: views.map((x) => x.row),
    members: new Map(memberRows.map((row) => [row.email.toLowerCase(), row.id])),
  };
}

/** A field as the document writes it: a relation names its folder, not its id. */
function fieldDoc(field: FieldDefinition, names: Names): ConfigField {
  return {
    key: field.key,
    label: field.label,
    type: field.type,
    ...(field.options ? { options: [...field.options] } : {}),
    ...(field.relation
      ? {
          relation: {
            folder: names.folders.get(field.relation.folderId) ?? field.relation.folderId,
            cardinality: field.relation.cardinality,
            ...(field.relation.labels ? { labels: [...field.relation.labels] } : {}),
            ...(field.relation.inverseKey ? { inverseKey: field.relation.inverseKey } : {}),
          },
        }
      : {}),
  };
}

function workflowDoc(row: WorkflowRow, names: Names): ConfigWorkflow {
  return {
    name: row.name,
    enabled: row.enabled,
    trigger: {
      type: row.triggerType as ConfigWorkflow['trigger']['type'],
      ...(row.schedule ? { cron: row.schedule.cron, timezone: row.schedule.timezone } : {}),
    },
    actions: actionsToRefs(row.actions, names),
    requireSignature: row.secret !== null,
    rateLimitPerMinute: row.rateLimitPerMinute,
    notifyOnFailure: row.notifyOnFailure.map((id) => {
      const ref = refOf('user', id, names);
      return ref && '$user' in ref ? ref : { $user: id };
    }),
  };
}

function webhookDoc(row: WebhookRow): ConfigWebhook {
  const shown = serializeWebhook(row);
  return {
    url: shown.url,
    events: [...shown.events],
    fields: [...shown.fields],
    headers: shown.headers,
    description: shown.description,
    enabled: shown.enabled,
  };
}

function viewDoc(row: SavedViewRow, names: Names): ConfigView {
  return {
    folder: names.folders.get(row.folderId) ?? row.folderId,
    name: row.name,
    columns: [...row.definition.columns],
    sort: row.definition.sort,
    filters: row.definition.filters.map((x) => ({ field: x.field, op: x.op, value: x.value })),
  };
}
