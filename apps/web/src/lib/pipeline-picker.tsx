import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { SelectField } from './components.tsx';
import { api } from './query.ts';

/**
 * The workspace's pipelines and the one a page shows: the first until another is picked. The
 * board and the Reports page both start from it.
 */
export function usePipelineChoice() {
  const pipelines = useQuery(api.pipelines.list.queryOptions({ pageSize: 200 }));
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  useEffect(() => {
    if (!pipelineId && pipelines.data?.data[0]) setPipelineId(pipelines.data.data[0].id);
  }, [pipelines.data, pipelineId]);
  const pipeline = pipelines.data?.data.find((p) => p.id === pipelineId);
  return { pipelines, pipelineId, pipeline, setPipelineId };
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
