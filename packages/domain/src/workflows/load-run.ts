import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import type { RunRow } from './serialize.ts';

export async function loadRun(
  tx: Executor,
  actor: Pick<Actor, 'workspaceId'>,
  id: string,
  options: { lock?: 'update' } = {},
): Promise<RunRow> {
  return loadInWorkspace(tx, schema.workflowRuns, actor.workspaceId, id, {
    kind: 'run',
    name: 'Run',
    ...options,
  });
}
