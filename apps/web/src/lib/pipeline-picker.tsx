import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading, SelectField } from './components.tsx';
import { api } from './query.ts';

/**
 * The workspace's pipelines and the one a page shows: the first until another is picked. The
 * board and the Reports page both start from it.
 */
export function usePipelineChoice() {
  const pipelines = useQuery(api.pipelines.list.queryOptions({ pageSize: 200 }));
  const [chosen, setPipelineId] = useState<string | null>(null);
  const all = pipelines.data?.data ?? [];
  const pipeline = all.find((p) => p.id === chosen) ?? all[0];
  return { pipelines, pipelineId: pipeline?.id ?? null, pipeline, setPipelineId };
}

/** The "Pipeline" menu of a page's header, shown when there is more than one to pick from. */
export function PipelinePicker({ choice }: { choice: ReturnType<typeof usePipelineChoice> }) {
  const all = choice.pipelines.data?.data;
  if (!all || all.length < 2) return null;
  return (
    <SelectField
      label="Pipeline"
      value={choice.pipelineId ?? ''}
      onChange={(e) => choice.setPipelineId(e.target.value)}
      options={all.map((p) => ({ value: p.id, label: p.name }))}
    />
  );
}

/**
 * What a page shows while it has no pipeline to show: loading, or a workspace without any
 * (the page shows a failed read's problem itself).
 */
export function NoPipeline({ choice, what }: { choice: ReturnType<typeof usePipelineChoice>; what: string }) {
  if (choice.pipelines.isPending) return <Loading what={what} />;
  if (!choice.pipelines.data) return null;
  return (
    <p className="empty">
      No pipelines yet. A pipeline is made through the API: <code>POST /api/v1/pipelines</code>.
    </p>
  );
}
