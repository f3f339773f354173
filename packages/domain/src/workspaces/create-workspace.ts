import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { MemberRole } from '@crm/db/schema';
import { insertFolder } from '../folders/create-folder.ts';
import { insertPipeline } from '../pipelines/create-pipeline.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { DEFAULT_FOLDER, DEFAULT_PIPELINE } from './defaults.ts';

export interface CreateWorkspaceInput {
  name: string;
  owner: { email: string; name: string };
  rateLimitPerMinute?: number;
}

/** Creates a workspace with its owner (an existing user of that email is reused), default folder and pipeline. */
export async function createWorkspace(db: Database, input: CreateWorkspaceInput) {
  return db.transaction(async (tx) => {
    const workspaceId = newId('workspace');
    await tx.insert(schema.workspaces).values({
      id: workspaceId,
      name: input.name,
      ...(input.rateLimitPerMinute ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
    });
    const userId = await upsertUser(tx, input.owner.email, input.owner.name);
    await addMember(tx, workspaceId, userId, 'OWNER');
    await insertFolder(tx, workspaceId, DEFAULT_FOLDER.name, DEFAULT_FOLDER.fields);
    await insertPipeline(tx, workspaceId, DEFAULT_PIPELINE.name, DEFAULT_PIPELINE.stages);
    return { workspaceId, userId };
  });
}

async function upsertUser(tx: Executor, email: string, name: string): Promise<string> {
  const [row] = await tx
    .insert(schema.users)
    .values({ id: newId('user'), email: email.toLowerCase(), name })
    .onConflictDoUpdate({ target: schema.users.email, set: { updatedAt: new Date() } })
    .returning({ id: schema.users.id });
  if (!row) missing('the row insert … returning wrote (row)');
  return row.id;
}

export async function addMember(tx: Executor, workspaceId: string, userId: string, role: MemberRole) {
  await tx.insert(schema.memberships).values({ workspaceId, userId, role }).onConflictDoNothing();
}
