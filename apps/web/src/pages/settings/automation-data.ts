import { useQueries } from '@tanstack/react-query';
import { api, queryClient } from '../../lib/query.ts';
import type { Choices } from './action-builder.tsx';

/** Folders, pipelines and members the action forms offer as choices. */
export function useChoices(): { data: Choices | undefined; error: unknown } {
  const [folders, pipelines, members] = useQueries({
    queries: [
      api.folders.list.queryOptions({ pageSize: 200 }),
      api.pipelines.list.queryOptions({ pageSize: 200 }),
      api.workspace.members.queryOptions({ pageSize: 200 }),
    ],
  });
  const error = folders.error ?? pipelines.error ?? members.error;
  if (!folders.data || !pipelines.data || !members.data) return { data: undefined, error };
  return {
    data: { folders: folders.data.data, pipelines: pipelines.data.data, members: members.data.data },
    error,
  };
}

/** Reads the automations, one automation and its runs again after a change. */
export const reloadWorkflows = () => queryClient.invalidateQueries(api.workflows.pathFilter());
