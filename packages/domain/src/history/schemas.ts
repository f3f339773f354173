import { z } from 'zod';
import { changeSources } from '../shared/actor.ts';
import { pagingInput } from '../shared/paging.ts';
import { actorOutput, idParam, instantOutput, instantQueryInput, listEnvelope } from '../shared/schemas.ts';

const historyEntryOutput = z
  .object({
    id: z.string(),
    at: instantOutput(),
    field: z.string().meta({
      description: '`title`, `stageId`, `data.<key>` … as `changes` of the `*.updated` event names it.',
    }),
    from: z.unknown().meta({ description: 'The value before the change; null when there was none.' }),
    to: z.unknown().meta({ description: 'The value after the change; null when it was removed.' }),
    actor: actorOutput,
    source: z.enum(changeSources).meta({ description: 'The surface the change came through.' }),
    requestId: z.string().nullable().meta({
      description: 'The X-Request-Id of the request that made it; null for the service’s own work.',
    }),
  })
  .meta({ id: 'HistoryEntry' });

export type HistoryEntryOutput = z.infer<typeof historyEntryOutput>;

export const historyEnvelope = listEnvelope(historyEntryOutput);

export const findHistoryInput = z.strictObject({
  id: idParam('Id of the record, deal or task'),
  field: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Only changes of this field (`title`, `data.stage` …).' }),
  since: instantQueryInput().optional().meta({ description: 'Only changes made at or after this instant.' }),
  pageSize: pagingInput.pageSize,
  cursor: pagingInput.cursor,
});

export type FindHistoryInput = z.infer<typeof findHistoryInput>;

export const revertHistoryInput = z.strictObject({
  id: idParam('Id of the record, deal or task'),
  entryId: idParam('The history entry (hst_…) whose change is undone'),
  force: z.enum(['true', 'false']).optional().meta({
    description: '`true` sets the field back even though it changed after this entry (otherwise 409).',
  }),
});

export type RevertHistoryInput = z.infer<typeof revertHistoryInput>;
