import type { z } from 'zod';
import type { createExportJobInput } from './schemas.ts';

/** The `POST /records/query` body of an export's page after `cursor`. */
export function listInput(
  input: Pick<z.output<typeof createExportJobInput>, 'folderId' | 'filter' | 'q' | 'sort'>,
  cursor: string | undefined,
  pageSize: number,
) {
  return {
    folderId: input.folderId,
    ...(input.filter ? { filter: input.filter } : {}),
    ...(input.q ? { q: input.q } : {}),
    ...(input.sort ? { sort: input.sort } : {}),
    ...(cursor ? { cursor } : {}),
    pageSize,
  };
}
