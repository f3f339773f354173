import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { createApiKey } from '../api-keys/create-api-key.ts';
import { rightsOf } from '../api-keys/scopes.ts';
import { audit } from '../audit/append-audit.ts';
import { applyConfig } from '../config/apply-config.ts';
import { readConfig } from '../config/read-config.ts';
import type { ConfigDocument } from '../config/schemas.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { openHeaderValues } from '../shared/secret-box.ts';
import type { DomainServices } from '../shared/services.ts';
import { createWorkspace } from '../workspaces/create-workspace.ts';
import { deleteWorkspaceData } from './delete-workspace-data.ts';
import {
  type CreatedSandboxOutput,
  type createSandboxInput,
  type SandboxCopy,
  sandboxCopies,
  sandboxLimits,
} from './schemas.ts';
import { serializeSandbox } from './serialize.ts';

/** What each part of the configuration needs copied with it: the objects it names. */
const NEEDS: Partial<Record<SandboxCopy, SandboxCopy[]>> = {
  workflows: ['folders', 'pipelines'],
  views: ['folders'],
};

/**
 * Makes a sandbox of the caller's workspace (docs/operations.md, "Sandboxes"): a new workspace
 * with the members of this one (same roles), the configuration asked for, copied as
 * `POST /config/apply` would apply it (webhook header values included), up to
 * `sampleRecords` of the newest records of the copied folders, and a key for the caller,
 * `crm_test_…`, returned once. Its webhooks and HTTP_REQUEST steps send only to `allowUrls`;
 * everything else is captured. A step that fails removes what the ones before it made.
 */
export async function createSandbox(
  db: Database,
  actor: Actor,
  input: z.infer<typeof createSandboxInput>,
  services: DomainServices,
): Promise<CreatedSandboxOutput> {
  const copy = new Set<SandboxCopy>(input.copy ?? sandboxCopies);
  for (const part of copy)
    for (const needed of NEEDS[part] ?? [])
      if (!copy.has(needed)) throw invalid('copy', `${part} name ${needed}: copy ${needed} too`);
  const w = schema.workspaces;
  const [source] = await db.select().from(w).where(eq(w.id, actor.workspaceId));
  if (!source) missing('the workspace of the caller');
  if (source.sandboxOf !== null)
    throw invalid('name', 'this workspace is a sandbox: make sandboxes of the workspace it was made from');
  const [held] = await db.select({ n: count() }).from(w).where(eq(w.sandboxOf, actor.workspaceId));
  if ((held?.n ?? 0) >= sandboxLimits.perWorkspace)
    throw invalid('name', `this workspace has ${held?.n} sandboxes, the most it may keep; delete one first`);
  const [user] = await db
    .select({ email: schema.users.email, name: schema.users.name })
    .from(schema.users)
    .where(eq(schema.users.id, actor.userId));
  if (!user) missing('the user of the caller');

  const state = await readConfig(db, actor);
  const made = await createWorkspace(db, {
    name: input.name,
    owner: user,
    rateLimitPerMinute: source.rateLimitPerMinute,
  });
  const sandboxId = made.workspaceId;
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(w)
        .set({
          sandboxOf: actor.workspaceId,
          sandboxAllow: input.allowUrls ?? [],
          defaultCurrency: source.defaultCurrency,
        })
        .where(eq(w.id, sandboxId));
      // Every member of the workspace may open its sandboxes, with the role they have there.
      await tx.execute(sql`
        insert into memberships (workspace_id, user_id, role)
        select ${sandboxId}, user_id, role from memberships where workspace_id = ${actor.workspaceId}
        on conflict do nothing`);
    });
    const inSandbox: Actor = {
      ...actor,
      workspaceId: sandboxId,
      role: 'OWNER',
      scopes: rightsOf('OWNER'),
      apiKeyId: null,
      folderIds: null,
    };
    const document: ConfigDocument = {
      ...state.document,
      folders: copy.has('folders') ? state.document.folders : [],
      pipelines: copy.has('pipelines') ? state.document.pipelines : [],
      workflows: copy.has('workflows') ? state.document.workflows : [],
      // The header values themselves: the document shows them masked.
      webhooks: copy.has('webhooks')
        ? state.document.webhooks.map((hook, i) => ({
            ...hook,
            headers: openHeaderValues(state.webhooks[i]?.headers ?? {}),
          }))
        : [],
      views: copy.has('views') ? state.document.views : [],
    };
    await applyConfig(db, inSandbox, { document }, services);
    const records = copy.has('folders')
      ? await copySampleRecords(db, actor, sandboxId, input.sampleRecords ?? 0)
      : 0;
    const { secret } = await createApiKey(
      db,
      { workspaceId: sandboxId, userId: actor.userId, name: 'Sandbox key' },
      actor,
    );
    const [row] = await db.select().from(w).where(eq(w.id, sandboxId));
    if (!row) missing('the sandbox just made');
    await audit(db, actor, {
      action: 'sandbox.created',
      target: { type: 'workspace', id: sandboxId },
      details: {
        name: input.name,
        copy: [...copy],
        sampleRecords: records,
        allowUrls: input.allowUrls ?? [],
      },
    });
    return {
      ...serializeSandbox(row),
      apiKey: secret,
      copied: {
        folders: document.folders.length,
        pipelines: document.pipelines.length,
        workflows: document.workflows.length,
        webhooks: document.webhooks.length,
        views: document.views.length,
        records,
      },
    };
  } catch (error) {
    await deleteWorkspaceData(db, sandboxId);
    throw error;
  }
}

/**
 * Copies up to `limit` of the newest live records of the source's folders into the sandbox's
 * folders of the same names: titles, emails, phones, owners and values, but no values of
 * RELATION fields (their links are not copied). Written as they are, with no events: sample
 * data starts no workflow and reaches no webhook.
 */
async function copySampleRecords(
  db: Database,
  actor: Actor,
  sandboxId: string,
  limit: number,
): Promise<number> {
  if (limit === 0) return 0;
  const f = schema.folders;
  const sourceFolders = await db.select().from(f).where(eq(f.workspaceId, actor.workspaceId));
  const sandboxFolders = await db.select().from(f).where(eq(f.workspaceId, sandboxId));
  const target = new Map(sandboxFolders.map((folder) => [folder.name, folder]));
  const folderMap = new Map<string, { id: string; relations: Set<string> }>();
  for (const folder of sourceFolders) {
    const into = target.get(folder.name);
    if (!into) continue;
    folderMap.set(folder.id, {
      id: into.id,
      relations: new Set(folder.fields.filter((x) => x.type === 'RELATION').map((x) => x.key)),
    });
  }
  if (folderMap.size === 0) return 0;
  const r = schema.records;
  const rows = await db
    .select()
    .from(r)
    .where(
      and(
        eq(r.workspaceId, actor.workspaceId),
        isNull(r.trashedAt),
        inArray(r.folderId, [...folderMap.keys()]),
      ),
    )
    .orderBy(desc(r.createdAt), desc(r.id))
    .limit(limit);
  const values = rows.map((row) => {
    const folder = folderMap.get(row.folderId) ?? missing('the folder of a copied record');
    const data = Object.fromEntries(Object.entries(row.data).filter(([key]) => !folder.relations.has(key)));
    return {
      workspaceId: sandboxId,
      id: newId('record'),
      folderId: folder.id,
      title: row.title,
      email: row.email,
      phone: row.phone,
      data,
      ownerId: row.ownerId,
      searchText: row.searchText,
      searchSignature: row.searchSignature,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  });
  for (let i = 0; i < values.length; i += 1000) await db.insert(r).values(values.slice(i, i + 1000));
  return values.length;
}
