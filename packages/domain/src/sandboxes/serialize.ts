import type { schema } from '@crm/db';
import type { SandboxOutput } from './schemas.ts';

type WorkspaceRow = typeof schema.workspaces.$inferSelect;

export function serializeSandbox(row: WorkspaceRow): SandboxOutput {
  return {
    id: row.id,
    name: row.name,
    sourceWorkspaceId: row.sandboxOf ?? '',
    allowUrls: [...row.sandboxAllow],
    createdAt: row.createdAt.toISOString(),
  };
}
