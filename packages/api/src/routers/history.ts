import {
  dealOutput,
  envelope,
  findHistory,
  findHistoryInput,
  historyEnvelope,
  recordOutput,
  revertHistoryEntry,
  revertHistoryInput,
  taskOutput,
} from '@crm/domain';
import type { z } from 'zod';
import { restRoute } from '../rest-route.ts';
import { authedProcedure, declaredOutput } from '../trpc.ts';

const outputs = { record: recordOutput, deal: dealOutput, task: taskOutput } as const;

/**
 * The field history of records, deals and tasks (docs/api.md, "History and provenance"):
 * `GET /<kind>s/{id}/history` and `POST /<kind>s/{id}/history/{entryId}/revert`, declared once
 * for the three.
 */
export function historyProcedures<K extends keyof typeof outputs>(kind: K, tags: string[]) {
  const one = envelope(outputs[kind] as (typeof outputs)[K]);
  return {
    history: authedProcedure
      .meta(
        restRoute({
          scope: `${kind}s:read`,
          openapi: {
            method: 'GET',
            path: `/${kind}s/{id}/history`,
            tags,
            summary: `List a ${kind}'s field history`,
            description: `Every change of a field of the ${kind}, newest first: the field, its value before and after, who made the change (\`actor\`), through which surface (\`source\`) and in which request (\`requestId\`). Kept as long as the ${kind} exists. \`field\` and \`since\` narrow it; page with \`cursor\`.`,
          },
          errors: [404],
        }),
      )
      .input(findHistoryInput)
      .concat(declaredOutput(historyEnvelope))
      .query(({ ctx, input }) => findHistory(ctx.db, ctx.actor, { ...input, subject: kind })),

    revertHistory: authedProcedure
      .meta(
        restRoute({
          scope: `${kind}s:write`,
          openapi: {
            method: 'POST',
            path: `/${kind}s/{id}/history/{entryId}/revert`,
            tags,
            summary: `Set a ${kind}'s field back to before a change`,
            description: `Sets the entry's field back to its \`from\` value, as a new change made by the caller (checked, recorded in the history and announced like a PATCH), and answers the ${kind} as it now is. 409 when the field changed after the entry, unless \`force=true\`.`,
          },
          queryParams: ['force'],
          errors: [404, 409],
        }),
      )
      .input(revertHistoryInput)
      .concat(declaredOutput(one))
      .mutation(async ({ ctx, input }) => ({
        data: (await revertHistoryEntry(ctx.db, ctx.actor, { ...input, subject: kind })) as z.infer<
          typeof one
        >['data'],
      })),
  };
}
