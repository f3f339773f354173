import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import { addField } from '../folders/add-field.ts';
import { changeField } from '../folders/change-folder-field.ts';
import { insertFolder } from '../folders/create-folder.ts';
import { loadFolder } from '../folders/load-folder.ts';
import { removeFolderField } from '../folders/remove-folder-field.ts';
import { saveFields } from '../folders/save-fields.ts';
import { type changeFieldInput, fieldDefinitionInput } from '../folders/schemas.ts';
import type { FolderRow } from '../folders/serialize.ts';
import { insertStage } from '../pipelines/add-stage.ts';
import { changeStages } from '../pipelines/change-stages.ts';
import { insertPipeline } from '../pipelines/create-pipeline.ts';
import { dropStage } from '../pipelines/remove-stage.ts';
import type { Actor } from '../shared/actor.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import type { ErrorDetail } from '../shared/errors.ts';
import { openHeaderValues } from '../shared/secret-box.ts';
import type { DomainServices } from '../shared/services.ts';
import { issueDetails } from '../shared/zod-issues.ts';
import { createSavedView } from '../views/create-saved-view.ts';
import { deleteSavedView } from '../views/delete-saved-view.ts';
import { createSavedViewInput } from '../views/schemas.ts';
import { updateSavedView } from '../views/update-saved-view.ts';
import { createWebhook } from '../webhooks/create-webhook.ts';
import { deleteWebhook } from '../webhooks/delete-webhook.ts';
import { createWebhookInput, MASKED_VALUE } from '../webhooks/schemas.ts';
import { maskHeaderValue } from '../webhooks/secrets.ts';
import { updateWebhook } from '../webhooks/update-webhook.ts';
import { createWorkflow } from '../workflows/create-workflow.ts';
import { deleteWorkflow } from '../workflows/delete-workflow.ts';
import { scheduleOf } from '../workflows/schedule-workflow.ts';
import { createWorkflowInput } from '../workflows/schemas.ts';
import { updateWorkflow } from '../workflows/update-workflow.ts';
import type { ConfigState } from './read-config.ts';
import { actionsFromRefs, type Ref, type RefKind } from './refs.ts';
import type {
  ConfigChange,
  ConfigDocument,
  ConfigField,
  ConfigFolder,
  ConfigKind,
  ConfigPipeline,
  ConfigPlan,
  ConfigWebhook,
  ConfigWorkflow,
} from './schemas.ts';

/**
 * The changes that make a workspace's configuration the document's (docs/operations.md,
 * "Configuration as code"), each with how to make it. A plan shows them; an apply makes them
 * in order, in one transaction, through the same functions the API's own calls use, so that
 * every rule of those calls holds (a field's stored values checked against its new type, a
 * workflow's actions and templates, a webhook's URL).
 */
export interface Steps {
  steps: Step[];
  left: ConfigPlan['left'];
  /** Problems of the document found before any change: with any, nothing is applied. */
  problems: ErrorDetail[];
}

interface Step {
  /** What the step changes, as a plan shows it (a pipeline's stages change in one step). */
  changes: ConfigChange[];
  /** Where in the request the object is: a failure of the step is reported there. */
  at: string;
  run: (tx: Executor, live: Live) => Promise<void>;
  /** Counts what a removal does to data, into its change's `cascade`. */
  cascade?: (db: Executor) => Promise<void>;
}

/** What an apply learns as it goes: the ids of objects it made, the secrets it was shown. */
export interface Live {
  folders: Map<string, string>;
  pipelines: Map<string, string>;
  /** `pipeline\0stage` → id. */
  stages: Map<string, string>;
  secrets: { kind: 'webhook' | 'workflow'; key: string; secret: string }[];
}

type Resolve = (kind: RefKind, ref: Ref) => string | { problem: string };

const stageKey = (pipeline: string, stage: string) => `${pipeline}\u0000${stage}`;
/** A stand-in id for an object the apply makes, while the document is checked. */
const planned = (kind: string, name: string) => `(new ${kind} ${name})`;
const notInDocument = 'not in the document (apply with prune to remove it)';

/** The objects of one kind by key (the first of each), and the keys that name more than one. */
function byKey<T>(items: T[], keyOf: (item: T) => string) {
  const map = new Map<string, T>();
  const twice = new Set<string>();
  for (const item of items) {
    const key = keyOf(item);
    if (map.has(key)) twice.add(key);
    else map.set(key, item);
  }
  return { map, twice };
}

/** Counts rows of a statement `select count(*) …`. */
async function countOf(db: Executor, query: SQL): Promise<number> {
  const result = await db.execute<{ n: string | number }>(query);
  return Number(result.rows[0]?.n ?? 0);
}

/** The plan of a document against the workspace's configuration as read (`state`). */
export function planSteps(
  state: ConfigState,
  document: ConfigDocument,
  prune: boolean,
  actor: Actor,
  services: DomainServices,
): Steps {
  const planner = new Planner(state, document, prune, actor, services);
  return planner.plan();
}

class Planner {
  /** Steps by phase, run in this order (see `plan`). */
  private readonly removals: Step[] = [];
  private readonly structure: Step[] = [];
  private readonly relations: Step[] = [];
  private readonly ordering: Step[] = [];
  private readonly pipelineSteps: Step[] = [];
  private readonly hooks: Step[] = [];
  private readonly flows: Step[] = [];
  private readonly views: Step[] = [];
  private readonly left: ConfigPlan['left'] = [];
  private readonly problems: ErrorDetail[] = [];
  private readonly folders: ReturnType<typeof byKey<FolderRow>>;
  private readonly pipelines: ReturnType<typeof byKey<ConfigState['pipelines'][number]>>;
  private readonly docFolders: Map<string, ConfigFolder>;
  private readonly relationAdds: { folder: string; field: ConfigField; at: string }[] = [];
  /** Relations whose removal a step already makes (by id). */
  private readonly removedRelations = new Set<string>();
  /** The stage names each pipeline will have after the apply. */
  private readonly stagesAfter = new Map<string, Set<string>>();

  constructor(
    private readonly state: ConfigState,
    private readonly document: ConfigDocument,
    private readonly prune: boolean,
    private readonly actor: Actor,
    private readonly services: DomainServices,
  ) {
    this.folders = byKey(state.folders, (f) => f.name);
    this.pipelines = byKey(state.pipelines, (p) => p.row.name);
    this.docFolders = new Map(document.folders.map((f) => [f.name, f]));
  }

  plan(): Steps {
    this.uniqueNames(this.document.folders, 'folder', 'folders', this.folders.twice);
    this.uniqueNames(this.document.pipelines, 'pipeline', 'pipelines', this.pipelines.twice);
    this.uniqueNames(
      this.document.workflows,
      'workflow',
      'workflows',
      byKey(this.state.workflows, (w) => w.name).twice,
    );
    for (const [i, folder] of this.document.folders.entries()) this.planFolder(folder, `folders.${i}`);
    for (const row of this.state.folders)
      if (!this.docFolders.has(row.name))
        this.leftOver('folder', row.name, 'not in the document; folders are not removed');
    this.planRelations();
    for (const [i, pipeline] of this.document.pipelines.entries())
      this.planPipeline(pipeline, `pipelines.${i}`);
    for (const { row } of this.state.pipelines)
      if (!this.document.pipelines.some((p) => p.name === row.name))
        this.leftOver('pipeline', row.name, 'not in the document; pipelines are not removed');
    this.planWebhooks();
    this.planWorkflows();
    this.planViews();
    // What depends on others goes first (views, workflows, webhooks, fields removed), then
    // objects in the order they need each other: folders and fields, the fields' order,
    // pipelines and stages, webhooks, workflows (which name folders and stages), views
    // (which name fields).
    const steps = [
      ...this.removals,
      ...this.structure,
      ...this.relations,
      ...this.ordering,
      ...this.pipelineSteps,
      ...this.hooks,
      ...this.flows,
      ...this.views,
    ];
    return { steps, left: this.left, problems: this.problems };
  }

  // ---- helpers ----

  private problem(path: string, message: string) {
    this.problems.push({ path: `document.${path}`, message });
  }

  private issuesAt(path: string, error: z.ZodError) {
    for (const d of issueDetails(error))
      this.problems.push({ path: `document.${path}.${d.path}`, message: d.message });
  }

  private leftOver(kind: ConfigKind, key: string, reason: string) {
    this.left.push({ kind, key, reason });
  }

  private auditField(
    tx: Executor,
    folderId: string,
    action: 'folder.field_added' | 'folder.field_changed',
    details: Record<string, unknown>,
  ) {
    return audit(tx, this.actor, { action, target: { type: 'folder', id: folderId }, details });
  }

  /** Names in the document are keys: each once, and once in the workspace where it is matched. */
  private uniqueNames(list: { name: string }[], kind: string, path: string, twiceInWorkspace: Set<string>) {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (seen.has(item.name))
        this.problem(`${path}.${i}.name`, `another ${kind} of the document is named "${item.name}"`);
      else if (twiceInWorkspace.has(item.name))
        this.problem(
          `${path}.${i}.name`,
          `two ${kind}s of the workspace are named "${item.name}"; rename one first`,
        );
      seen.add(item.name);
    });
  }

  /** Whether a folder of this name exists after the apply. */
  private folderExists(name: string) {
    return this.docFolders.has(name) || this.folders.map.has(name);
  }

  private folderId(live: Live, name: string): string {
    return live.folders.get(name) ?? this.folders.map.get(name)?.id ?? '';
  }

  // ---- folders and fields ----

  private planFolder(folder: ConfigFolder, at: string) {
    const keys = new Set<string>();
    folder.fields.forEach((field, i) => {
      if (keys.has(field.key))
        this.problem(`${at}.fields.${i}.key`, `the folder has another field ${field.key}`);
      keys.add(field.key);
      this.checkField(field, `${at}.fields.${i}`);
    });
    const current = this.folders.map.get(folder.name);
    if (current) return this.planFields(current, folder.fields, at);
    const plain = folder.fields.filter((f) => f.type !== 'RELATION');
    this.structure.push({
      changes: [{ op: 'create', kind: 'folder', key: folder.name }],
      at: `document.${at}`,
      run: async (tx, live) => {
        const row = await insertFolder(tx, this.actor.workspaceId, folder.name, plain.map(plainDefinition));
        live.folders.set(folder.name, row.id);
        await audit(tx, this.actor, {
          action: 'folder.created',
          target: { type: 'folder', id: row.id },
          details: { name: row.name, fields: plain.map((f) => ({ key: f.key, type: f.type })) },
        });
      },
    });
    folder.fields.forEach((field, i) => {
      if (field.type === 'RELATION')
        this.relationAdds.push({ folder: folder.name, field, at: `${at}.fields.${i}` });
    });
    if (folder.fields.some((f) => f.type === 'RELATION'))
      this.orderFields(
        folder.name,
        folder.fields,
        at,
        [],
        plain.map((f) => f.key),
      );
  }

  private checkField(field: ConfigField, at: string) {
    const parsed = fieldDefinitionInput.safeParse({
      key: field.key,
      label: field.label,
      type: field.type,
      ...(field.options ? { options: field.options } : {}),
      ...(field.relation
        ? {
            relation: {
              folderId: 'planned',
              cardinality: field.relation.cardinality,
              ...(field.relation.labels ? { labels: field.relation.labels } : {}),
            },
          }
        : {}),
    });
    if (!parsed.success) {
      this.issuesAt(at, parsed.error);
      return;
    }
    if (field.type === 'RELATION' && !field.relation) {
      this.problem(`${at}.relation`, 'is required for RELATION fields');
      return;
    }
    if (field.type !== 'RELATION' && field.relation) {
      this.problem(`${at}.relation`, 'only RELATION fields have it');
      return;
    }
    const needsOptions = field.type === 'SELECT' || field.type === 'MULTI_SELECT';
    if (needsOptions && !field.options) this.problem(`${at}.options`, `is required for ${field.type} fields`);
    if (!needsOptions && field.options)
      this.problem(`${at}.options`, 'only SELECT and MULTI_SELECT fields have options');
    if (field.relation && !this.folderExists(field.relation.folder))
      this.problem(
        `${at}.relation.folder`,
        `names no folder of the document or the workspace: "${field.relation.folder}"`,
      );
  }

  private planFields(current: FolderRow, wanted: ConfigField[], at: string) {
    const have = new Map(current.fields.map((f) => [f.key, f]));
    const wantedKeys = new Set(wanted.map((f) => f.key));
    const kept: string[] = [];
    for (const field of current.fields) {
      if (wantedKeys.has(field.key)) continue;
      const key = `${current.name}.${field.key}`;
      if (!this.prune) {
        this.leftOver('field', key, notInDocument);
        kept.push(field.key);
        continue;
      }
      // Both fields of a pair carry the relation's id; removing one removes the other.
      const relation = field.relation;
      if (relation && this.removedRelations.has(relation.id)) continue;
      if (relation) this.removedRelations.add(relation.id);
      const pair = relation?.inverseKey
        ? {
            folder: this.state.names.folders.get(relation.folderId) ?? relation.folderId,
            key: relation.inverseKey,
          }
        : null;
      if (pair && this.docFolders.get(pair.folder)?.fields.some((f) => f.key === pair.key)) {
        this.problem(
          `${at}.fields`,
          `removing ${key} removes its pair ${pair.folder}.${pair.key}, which the document keeps: leave both out`,
        );
        continue;
      }
      const change: ConfigChange = { op: 'remove', kind: 'field', key, cascade: [] };
      const ws = this.actor.workspaceId;
      this.removals.push({
        changes: [change],
        at: `document.${at}`,
        run: async (tx) => {
          await removeFolderField(tx, this.actor, { id: current.id, key: field.key, force: 'true' });
        },
        cascade: async (db) => {
          const values = await countOf(
            db,
            sql`select count(*) as n from records where workspace_id = ${ws} and folder_id = ${current.id} and data ? ${field.key}::text`,
          );
          if (values > 0) change.cascade?.push(`${values} record(s) lose their ${field.key} value`);
          if (relation) {
            const links = await countOf(
              db,
              sql`select count(*) as n from record_links where workspace_id = ${ws} and relation_id = ${relation.id}`,
            );
            if (links > 0)
              change.cascade?.push(`${links} link(s) removed, each with a record.unlinked event`);
            if (pair) change.cascade?.push(`its pair ${pair.folder}.${pair.key} is removed too`);
          }
        },
      });
    }
    for (const [i, field] of wanted.entries())
      this.planField(current, have.get(field.key), field, `${at}.fields.${i}`);
    this.orderFields(
      current.name,
      wanted,
      at,
      kept,
      current.fields.map((f) => f.key),
    );
  }

  private planField(
    current: FolderRow,
    existing: FieldDefinition | undefined,
    field: ConfigField,
    at: string,
  ) {
    const key = `${current.name}.${field.key}`;
    if (!existing) {
      if (field.type === 'RELATION') {
        this.relationAdds.push({ folder: current.name, field, at });
        return;
      }
      this.structure.push({
        changes: [{ op: 'create', kind: 'field', key }],
        at: `document.${at}`,
        run: async (tx) => {
          await addField(tx, this.actor, current.id, plainDefinition(field));
          await this.auditField(tx, current.id, 'folder.field_added', {
            key: field.key,
            type: field.type,
            label: field.label,
          });
        },
      });
      return;
    }
    if ((existing.type === 'RELATION') !== (field.type === 'RELATION')) {
      this.problem(
        `${at}.type`,
        `${field.key} is ${existing.type}; a field cannot change to or from RELATION: leave it out and apply with prune, then add it`,
      );
      return;
    }
    const changes: string[] = [];
    if (existing.label !== field.label) changes.push('label');
    let input: z.infer<typeof changeFieldInput>;
    if (existing.relation && field.relation) {
      const fixed: string[] = [];
      const target = this.state.names.folders.get(existing.relation.folderId) ?? existing.relation.folderId;
      if (target !== field.relation.folder) fixed.push('folder');
      if (existing.relation.cardinality !== field.relation.cardinality) fixed.push('cardinality');
      if ((existing.relation.inverseKey ?? null) !== (field.relation.inverseKey ?? null))
        fixed.push('inverseKey');
      if (fixed.length > 0) {
        this.problem(
          `${at}.relation`,
          `a relation keeps its ${fixed.join(', ')}: leave the field out and apply with prune, then add it`,
        );
        return;
      }
      if (canonicalJson(existing.relation.labels ?? null) !== canonicalJson(field.relation.labels ?? null))
        changes.push('labels');
      input = {
        id: current.id,
        key: field.key,
        ...(changes.includes('label') ? { label: field.label } : {}),
        ...(changes.includes('labels') ? { relation: { labels: field.relation.labels ?? null } } : {}),
      };
    } else {
      if (existing.type !== field.type) changes.push('type');
      if (canonicalJson(existing.options ?? null) !== canonicalJson(field.options ?? null))
        changes.push('options');
      input = {
        id: current.id,
        key: field.key,
        ...(changes.includes('label') ? { label: field.label } : {}),
        ...(changes.includes('type') ? { type: field.type } : {}),
        ...(field.options && (changes.includes('options') || changes.includes('type'))
          ? { options: field.options }
          : {}),
      };
    }
    if (changes.length === 0) return;
    this.structure.push({
      changes: [{ op: 'update', kind: 'field', key, changes }],
      at: `document.${at}`,
      run: async (tx) => {
        await changeField(tx, this.actor, input);
        await this.auditField(tx, current.id, 'folder.field_changed', { key: field.key, changed: changes });
      },
    });
  }

  /**
   * Puts a folder's fields in the document's order (the fields it keeps, without prune, after
   * them) when the order the other steps leave (`before`, then what they add) differs.
   */
  private orderFields(
    folderName: string,
    wanted: ConfigField[],
    at: string,
    kept: string[],
    before: string[],
  ) {
    const order = [...wanted.map((f) => f.key), ...kept];
    const remaining = before.filter((k) => order.includes(k));
    const after = [...remaining, ...order.filter((k) => !remaining.includes(k))];
    if (canonicalJson(after) === canonicalJson(order)) return;
    const created = !this.folders.map.has(folderName);
    this.ordering.push({
      changes: created ? [] : [{ op: 'update', kind: 'folder', key: folderName, changes: ['fields order'] }],
      at: `document.${at}`,
      run: async (tx, live) => {
        const row = await loadFolder(tx, this.actor, this.folderId(live, folderName), 'update');
        const position = new Map(order.map((key, i) => [key, i]));
        const rank = (key: string) => position.get(key) ?? order.length;
        const fields = [...row.fields].sort((a, b) => rank(a.key) - rank(b.key));
        if (canonicalJson(fields.map((x) => x.key)) !== canonicalJson(row.fields.map((x) => x.key)))
          await saveFields(tx, this.actor, row.id, fields);
      },
    });
  }

  /** New RELATION fields, once every folder exists: a pair is added once, with its inverse. */
  private planRelations() {
    const pending = new Map(this.relationAdds.map((r) => [`${r.folder}.${r.field.key}`, r]));
    for (const add of this.relationAdds) {
      const key = `${add.folder}.${add.field.key}`;
      if (!pending.has(key)) continue;
      pending.delete(key);
      const relation = add.field.relation;
      if (!relation) continue;
      let inverse: ConfigField | undefined;
      const changes: ConfigChange[] = [{ op: 'create', kind: 'field', key }];
      if (relation.inverseKey !== undefined) {
        const pairKey = `${relation.folder}.${relation.inverseKey}`;
        const pair = pending.get(pairKey);
        if (
          !pair ||
          pair.field.relation?.folder !== add.folder ||
          pair.field.relation.inverseKey !== add.field.key
        ) {
          this.problem(
            `${add.at}.relation.inverseKey`,
            `the pair of a new relation must be new too: a RELATION field ${relation.inverseKey} of folder "${relation.folder}" naming this folder and ${add.field.key} as its inverseKey`,
          );
          continue;
        }
        pending.delete(pairKey);
        inverse = pair.field;
        changes.push({ op: 'create', kind: 'field', key: pairKey });
      }
      const paired = inverse?.relation
        ? { key: inverse.key, label: inverse.label, cardinality: inverse.relation.cardinality }
        : undefined;
      this.relations.push({
        changes,
        at: `document.${add.at}`,
        run: async (tx, live) => {
          const folderId = this.folderId(live, add.folder);
          await addField(tx, this.actor, folderId, {
            key: add.field.key,
            label: add.field.label,
            type: 'RELATION',
            relation: {
              folderId: this.folderId(live, relation.folder),
              cardinality: relation.cardinality,
              ...(relation.labels ? { labels: relation.labels } : {}),
            },
            ...(paired ? { inverse: paired } : {}),
          });
          await this.auditField(tx, folderId, 'folder.field_added', {
            key: add.field.key,
            type: 'RELATION',
            label: add.field.label,
          });
        },
      });
    }
  }

  // ---- pipelines and stages ----

  private planPipeline(pipeline: ConfigPipeline, at: string) {
    const seen = new Set<string>();
    pipeline.stages.forEach((stage, i) => {
      if (seen.has(stage))
        this.problem(`${at}.stages.${i}`, `another stage of the pipeline is named "${stage}"`);
      seen.add(stage);
    });
    const current = this.pipelines.map.get(pipeline.name);
    if (!current) {
      this.stagesAfter.set(pipeline.name, new Set(pipeline.stages));
      this.pipelineSteps.push({
        changes: [{ op: 'create', kind: 'pipeline', key: pipeline.name }],
        at: `document.${at}`,
        run: async (tx, live) => {
          const id = await insertPipeline(tx, this.actor.workspaceId, pipeline.name, pipeline.stages);
          live.pipelines.set(pipeline.name, id);
          const s = schema.stages;
          const rows = await tx
            .select({ id: s.id, name: s.name })
            .from(s)
            .where(and(eq(s.workspaceId, this.actor.workspaceId), eq(s.pipelineId, id)));
          for (const row of rows) live.stages.set(stageKey(pipeline.name, row.name), row.id);
        },
      });
      return;
    }
    const name = pipeline.name;
    const wanted = pipeline.stages;
    const stages = current.stages;
    const byName = byKey(stages, (s) => s.name);
    const gone = stages.filter((s) => !wanted.includes(s.name));
    const removed = this.prune ? gone : [];
    const kept = this.prune ? [] : gone;
    for (const s of kept) this.leftOver('stage', `${name}/${s.name}`, notInDocument);
    this.stagesAfter.set(name, new Set([...wanted, ...kept.map((s) => s.name)]));
    const added = wanted.filter((n) => !byName.map.has(n));
    const order = [...wanted, ...kept.map((s) => s.name)];
    const before = stages.map((s) => s.name).filter((n) => order.includes(n));
    const reordered = canonicalJson(before) !== canonicalJson(order.filter((n) => before.includes(n)));
    const moveTo = wanted.find((n) => byName.map.has(n));
    const changes: ConfigChange[] = [
      ...removed.map(
        (s): ConfigChange => ({ op: 'remove', kind: 'stage', key: `${name}/${s.name}`, cascade: [] }),
      ),
      ...added.map((n): ConfigChange => ({ op: 'create', kind: 'stage', key: `${name}/${n}` })),
      ...(reordered
        ? [{ op: 'update', kind: 'pipeline', key: name, changes: ['stages order'] } as ConfigChange]
        : []),
    ];
    if (changes.length === 0) return;
    const ws = this.actor.workspaceId;
    this.pipelineSteps.push({
      changes,
      at: `document.${at}`,
      run: async (tx, live) => {
        await changeStages(tx, this.actor, current.row.id, async (inner, list) => {
          let next = list;
          for (const n of added)
            next = await insertStage(inner, this.actor, next, { pipelineId: current.row.id, name: n });
          for (const s of removed) {
            // Deals of a removed stage move to the first stage it keeps, else the first new one.
            const target = next.find((x) => x.name === (moveTo ?? wanted[0]) && x.id !== s.id);
            next = await dropStage(inner, this.actor, next, { stageId: s.id, moveDealsTo: target?.id });
          }
          const position = new Map(order.map((n, i) => [n, i]));
          const rank = (n: string) => position.get(n) ?? order.length;
          const sorted = [...next].sort((a, b) => rank(a.name) - rank(b.name));
          for (const st of sorted) live.stages.set(stageKey(name, st.name), st.id);
          return sorted;
        });
      },
      cascade: async (db) => {
        for (const [i, s] of removed.entries()) {
          const deals = await countOf(
            db,
            sql`select count(*) as n from deals where workspace_id = ${ws} and stage_id = ${s.id}`,
          );
          if (deals > 0) changes[i]?.cascade?.push(`${deals} deal(s) move to ${name}/${moveTo ?? wanted[0]}`);
        }
      },
    });
  }

  // ---- references of workflows ----

  /** Resolves a reference while planning: to an id, or a stand-in for what the apply makes. */
  private readonly planResolve: Resolve = (kind, ref) => {
    if ('$folder' in ref)
      return this.folderExists(ref.$folder)
        ? (this.folders.map.get(ref.$folder)?.id ?? planned('folder', ref.$folder))
        : { problem: `names no folder of the document or the workspace: "${ref.$folder}"` };
    if ('$pipeline' in ref)
      return this.stagesAfter.has(ref.$pipeline) || this.pipelines.map.has(ref.$pipeline)
        ? (this.pipelines.map.get(ref.$pipeline)?.row.id ?? planned('pipeline', ref.$pipeline))
        : { problem: `names no pipeline of the document or the workspace: "${ref.$pipeline}"` };
    if ('$stage' in ref) {
      const [p, s] = ref.$stage;
      const after = this.stagesAfter.get(p) ?? new Set(this.pipelines.map.get(p)?.stages.map((x) => x.name));
      if (!after.has(s)) return { problem: `names no stage "${s}" of a pipeline "${p}"` };
      return this.pipelines.map.get(p)?.stages.find((x) => x.name === s)?.id ?? planned('stage', `${p}/${s}`);
    }
    if ('$user' in ref)
      return (
        this.state.members.get(ref.$user.toLowerCase()) ?? {
          problem: `${ref.$user} is not a member of this workspace`,
        }
      );
    return { problem: `must name a ${kind}` };
  };

  /** The same while applying: every object named exists by then. */
  private liveResolve(live: Live): Resolve {
    return (_kind, ref) => {
      const gone = { problem: 'names nothing' };
      if ('$folder' in ref) return this.folderId(live, ref.$folder) || gone;
      if ('$pipeline' in ref)
        return live.pipelines.get(ref.$pipeline) ?? this.pipelines.map.get(ref.$pipeline)?.row.id ?? gone;
      if ('$stage' in ref) {
        const [p, s] = ref.$stage;
        return (
          live.stages.get(stageKey(p, s)) ??
          this.pipelines.map.get(p)?.stages.find((x) => x.name === s)?.id ??
          gone
        );
      }
      if ('$user' in ref) return this.state.members.get(ref.$user.toLowerCase()) ?? gone;
      return gone;
    };
  }

  /** A workflow of the document as `POST /workflows` takes it, its references resolved. */
  private workflowInput(wf: ConfigWorkflow, at: string, resolve: Resolve, report: boolean) {
    const found: { path: (string | number)[]; message: string }[] = [];
    const actions = actionsFromRefs(wf.actions, resolve, found);
    const notify = wf.notifyOnFailure.map((ref, i) => {
      const id = resolve('user', ref);
      if (typeof id === 'string') return id;
      found.push({ path: ['notifyOnFailure', i], message: id.problem });
      return '';
    });
    if (report)
      for (const f of found)
        this.problem(
          `${at}.${f.path[0] === 'notifyOnFailure' ? '' : 'actions.'}${f.path.join('.')}`,
          f.message,
        );
    const parsed = createWorkflowInput.safeParse({
      name: wf.name,
      enabled: wf.enabled,
      trigger: wf.trigger,
      actions,
      requireSignature: wf.requireSignature,
      rateLimitPerMinute: wf.rateLimitPerMinute,
      notifyOnFailure: notify,
    });
    return { parsed, resolved: found.length === 0 };
  }

  private planWorkflows() {
    const current = byKey(this.state.workflows, (w) => w.name);
    this.document.workflows.forEach((wf, i) => {
      const at = `workflows.${i}`;
      const { parsed, resolved } = this.workflowInput(wf, at, this.planResolve, true);
      if (!resolved) return;
      if (!parsed.success) {
        this.issuesAt(at, parsed.error);
        return;
      }
      const row = current.map.get(wf.name);
      const make = async (live: Live) => {
        const input = this.workflowInput(wf, at, this.liveResolve(live), false).parsed;
        if (!input.success) throw input.error;
        return input.data;
      };
      if (!row) {
        this.flows.push({
          changes: [{ op: 'create', kind: 'workflow', key: wf.name }],
          at: `document.${at}`,
          run: async (tx, live) => {
            const made = await createWorkflow(tx, this.actor, await make(live), this.services);
            if (made.secret) live.secrets.push({ kind: 'workflow', key: wf.name, secret: made.secret });
          },
        });
        return;
      }
      const want = parsed.data;
      const changes: string[] = [];
      if (row.enabled !== (want.enabled ?? true)) changes.push('enabled');
      if (
        row.triggerType !== want.trigger.type ||
        canonicalJson(row.schedule) !== canonicalJson(scheduleOf(want.trigger))
      )
        changes.push('trigger');
      if (canonicalJson(row.actions) !== canonicalJson(want.actions)) changes.push('actions');
      if ((row.secret !== null) !== (want.requireSignature ?? false)) changes.push('requireSignature');
      if (row.rateLimitPerMinute !== want.rateLimitPerMinute) changes.push('rateLimitPerMinute');
      if (canonicalJson(row.notifyOnFailure) !== canonicalJson(want.notifyOnFailure ?? []))
        changes.push('notifyOnFailure');
      if (changes.length === 0) return;
      this.flows.push({
        changes: [{ op: 'update', kind: 'workflow', key: wf.name, changes }],
        at: `document.${at}`,
        run: async (tx, live) => {
          const d = await make(live);
          const has = (c: string) => changes.includes(c);
          const made = await updateWorkflow(
            tx,
            this.actor,
            {
              id: row.id,
              ...(has('enabled') ? { enabled: d.enabled ?? true } : {}),
              ...(has('trigger') ? { trigger: d.trigger } : {}),
              ...(has('actions') ? { actions: d.actions } : {}),
              ...(has('requireSignature') ? { requireSignature: d.requireSignature ?? false } : {}),
              ...(has('rateLimitPerMinute') && d.rateLimitPerMinute !== undefined
                ? { rateLimitPerMinute: d.rateLimitPerMinute }
                : {}),
              ...(has('notifyOnFailure') ? { notifyOnFailure: d.notifyOnFailure ?? [] } : {}),
            },
            this.services,
          );
          if (made.secret) live.secrets.push({ kind: 'workflow', key: wf.name, secret: made.secret });
        },
      });
    });
    const ws = this.actor.workspaceId;
    for (const row of this.state.workflows) {
      if (this.document.workflows.some((w) => w.name === row.name)) continue;
      if (!this.prune) {
        this.leftOver('workflow', row.name, notInDocument);
        continue;
      }
      const change: ConfigChange = { op: 'remove', kind: 'workflow', key: row.name, cascade: [] };
      this.removals.unshift({
        changes: [change],
        at: 'document.workflows',
        run: async (tx) => {
          await deleteWorkflow(tx, this.actor, row.id);
        },
        cascade: async (db) => {
          const runs = await countOf(
            db,
            sql`select count(*) as n from workflow_runs where workspace_id = ${ws} and workflow_id = ${row.id}`,
          );
          if (runs > 0) change.cascade?.push(`${runs} run(s) of its history removed`);
        },
      });
    }
  }

  // ---- webhooks (by URL, in order where a URL has several) ----

  private planWebhooks() {
    const current = new Map<string, ConfigState['webhooks']>();
    for (const row of this.state.webhooks) current.set(row.url, [...(current.get(row.url) ?? []), row]);
    const seen = new Map<string, number>();
    const keyOf = (url: string, n: number) => (n === 0 ? url : `${url} (${n + 1})`);
    this.document.webhooks.forEach((hook, i) => {
      const at = `webhooks.${i}`;
      const n = seen.get(hook.url) ?? 0;
      seen.set(hook.url, n + 1);
      const key = keyOf(hook.url, n);
      const row = current.get(hook.url)?.[n];
      if (!row) {
        const masked = Object.entries(hook.headers).filter(([, value]) => MASKED_VALUE.test(value));
        for (const [name] of masked)
          this.problem(`${at}.headers.${name}`, 'is a masked value; a new subscription needs the full value');
        if (masked.length > 0) return;
        const parsed = createWebhookInput.safeParse(webhookInput(hook));
        if (!parsed.success) {
          this.issuesAt(at, parsed.error);
          return;
        }
        this.hooks.push({
          changes: [{ op: 'create', kind: 'webhook', key }],
          at: `document.${at}`,
          run: async (tx, live) => {
            const made = await createWebhook(tx, this.actor, parsed.data, this.services);
            live.secrets.push({ kind: 'webhook', key, secret: made.secret });
          },
        });
        return;
      }
      const stored = openHeaderValues(row.headers);
      const changes: string[] = [];
      if (canonicalJson(row.events) !== canonicalJson(hook.events)) changes.push('events');
      if (canonicalJson(row.fields) !== canonicalJson(hook.fields)) changes.push('fields');
      const sameHeaders =
        canonicalJson(Object.keys(stored).sort()) === canonicalJson(Object.keys(hook.headers).sort()) &&
        Object.entries(hook.headers).every(([name, value]) => {
          const have = stored[name];
          return have !== undefined && (value === have || value === maskHeaderValue(have));
        });
      if (!sameHeaders) changes.push('headers');
      if (row.description !== hook.description) changes.push('description');
      if (row.enabled !== hook.enabled) changes.push('enabled');
      if (changes.length === 0) return;
      const has = (c: string) => changes.includes(c);
      this.hooks.push({
        changes: [{ op: 'update', kind: 'webhook', key, changes }],
        at: `document.${at}`,
        run: async (tx) => {
          await updateWebhook(
            tx,
            this.actor,
            {
              id: row.id,
              ...(has('events') ? { events: hook.events } : {}),
              ...(has('fields') ? { fields: hook.fields } : {}),
              ...(has('headers') ? { headers: hook.headers } : {}),
              ...(has('description') ? { description: hook.description } : {}),
              ...(has('enabled') ? { enabled: hook.enabled } : {}),
            },
            this.services,
          );
        },
      });
    });
    for (const [url, rows] of current) {
      rows.forEach((row, n) => {
        if (n < (seen.get(url) ?? 0)) return;
        const key = keyOf(url, n);
        if (!this.prune) {
          this.leftOver('webhook', key, notInDocument);
          return;
        }
        this.removals.unshift({
          changes: [{ op: 'remove', kind: 'webhook', key, cascade: ['its delivery history is removed'] }],
          at: 'document.webhooks',
          run: async (tx) => {
            await deleteWebhook(tx, this.actor, row.id);
          },
        });
      });
    }
  }

  // ---- saved views (the caller's own) ----

  private planViews() {
    const keyOf = (folder: string, name: string) => `${folder}/${name.toLowerCase()}`;
    const current = new Map(
      this.state.views.map((row) => [
        keyOf(this.state.names.folders.get(row.folderId) ?? row.folderId, row.name),
        row,
      ]),
    );
    const inDocument = new Set<string>();
    this.document.views.forEach((view, i) => {
      const at = `views.${i}`;
      const key = keyOf(view.folder, view.name);
      if (inDocument.has(key))
        this.problem(`${at}.name`, `another view of folder "${view.folder}" is named "${view.name}"`);
      inDocument.add(key);
      if (!this.folderExists(view.folder)) {
        this.problem(`${at}.folder`, `names no folder of the document or the workspace: "${view.folder}"`);
        return;
      }
      const definition = { columns: view.columns, sort: view.sort, filters: view.filters };
      const parsed = createSavedViewInput.safeParse({ folderId: 'planned', name: view.name, definition });
      if (!parsed.success) {
        this.issuesAt(at, parsed.error);
        return;
      }
      const label = `${view.folder}/${view.name}`;
      const row = current.get(key);
      if (!row) {
        this.views.push({
          changes: [{ op: 'create', kind: 'view', key: label }],
          at: `document.${at}`,
          run: async (tx, live) => {
            await createSavedView(tx, this.actor, {
              ...parsed.data,
              folderId: this.folderId(live, view.folder),
            });
          },
        });
        return;
      }
      const changes: string[] = [];
      if (row.name !== view.name) changes.push('name');
      if (canonicalJson(row.definition) !== canonicalJson(parsed.data.definition)) changes.push('definition');
      if (changes.length === 0) return;
      this.views.push({
        changes: [{ op: 'update', kind: 'view', key: label, changes }],
        at: `document.${at}`,
        run: async (tx) => {
          await updateSavedView(tx, this.actor, {
            id: row.id,
            ...(changes.includes('name') ? { name: view.name } : {}),
            ...(changes.includes('definition') ? { definition: parsed.data.definition } : {}),
          });
        },
      });
    });
    for (const [key, row] of current) {
      if (inDocument.has(key)) continue;
      const label = `${this.state.names.folders.get(row.folderId) ?? row.folderId}/${row.name}`;
      if (!this.prune) {
        this.leftOver('view', label, notInDocument);
        continue;
      }
      this.removals.unshift({
        changes: [{ op: 'remove', kind: 'view', key: label }],
        at: 'document.views',
        run: async (tx) => {
          await deleteSavedView(tx, this.actor, row.id);
        },
      });
    }
  }
}

function plainDefinition(field: ConfigField): Pick<FieldDefinition, 'key' | 'label' | 'type' | 'options'> {
  return {
    key: field.key,
    label: field.label,
    type: field.type,
    ...(field.options ? { options: field.options } : {}),
  };
}

function webhookInput(hook: ConfigWebhook) {
  return {
    url: hook.url,
    events: hook.events,
    fields: hook.fields,
    headers: hook.headers,
    description: hook.description,
    enabled: hook.enabled,
  };
}
