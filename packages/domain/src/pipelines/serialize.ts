import type { PipelineRow, StageRow } from '../deals/stages.ts';
import type { PipelineOutput } from './schemas.ts';

export function serializePipeline(pipeline: PipelineRow, stages: StageRow[]): PipelineOutput {
  return {
    id: pipeline.id,
    name: pipeline.name,
    stages: stages.map((s) => ({
      id: s.id,
      name: s.name,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
    })),
    createdAt: pipeline.createdAt.toISOString(),
    updatedAt: pipeline.updatedAt.toISOString(),
  };
}
