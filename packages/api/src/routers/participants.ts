import {
  envelope,
  filteredListEnvelope,
  pagedIdInput,
  participantInput,
  type participantLinks,
  participantOutput,
  participantPathInput,
  participantRecordOutput,
} from '@crm/domain';
import { z } from 'zod';
import { restRoute } from '../rest-route.ts';
import { authedProcedure, declaredOutput } from '../trpc.ts';

/**
 * The records a deal or a task involves (docs/api.md, "Relations"): `POST /<kind>s/{id}/links`,
 * `DELETE /<kind>s/{id}/links/{to}` and `GET /<kind>s/{id}/links`, declared once for both.
 */
export function participantProcedures(
  kind: 'deal' | 'task',
  service: ReturnType<typeof participantLinks>,
  tags: string[],
) {
  const base = `/${kind}s/{id}/links` as const;
  const unlinked = z.object({ from: z.string(), to: z.string(), deleted: z.literal(true) });
  return {
    linkRecord: authedProcedure
      .meta(
        restRoute({
          scope: `${kind}s:write`,
          openapi: {
            method: 'POST',
            path: base,
            tags,
            summary: `Link a record to a ${kind}`,
            description: `Adds a live record to the ${kind}'s links with an optional \`label\` ("Decision maker"). Answers 201 with the link, or 200 with the link that was there (its label changed when another is given). The ${kind}'s \`recordId\`, its primary record, is always one of its links.`,
          },
          successStatus: 201,
          location: `/${kind}s/{from}/links`,
          alternativeSuccess: { status: 200, description: 'Already linked: the existing link' },
          errors: [404],
        }),
      )
      .input(participantInput(kind))
      .concat(declaredOutput(envelope(participantOutput)))
      .mutation(async ({ ctx, input }) => {
        const { created, data } = await service.link(ctx.db, ctx.actor, input);
        ctx.response.status = created ? 201 : 200;
        return { data };
      }),

    unlinkRecord: authedProcedure
      .meta(
        restRoute({
          scope: `${kind}s:write`,
          openapi: {
            method: 'DELETE',
            path: `${base}/{to}`,
            tags,
            summary: `Unlink a record from a ${kind}`,
            description: `Removes the record from the ${kind}'s links; removing its primary record clears \`recordId\` (with \`${kind}.updated\`). Not linked: 404. If-Match (the ${kind}'s ETag) makes it conditional.`,
          },
          errors: [404],
        }),
      )
      .input(participantPathInput(kind))
      .concat(declaredOutput(envelope(unlinked)))
      .mutation(async ({ ctx, input }) => ({ data: await service.unlink(ctx.db, ctx.actor, input) })),

    unlinkRecordByBody: authedProcedure
      .meta(
        restRoute({
          scope: `${kind}s:write`,
          openapi: {
            method: 'DELETE',
            path: base,
            tags,
            summary: `Unlink a record from a ${kind} (\`to\` in the query or body)`,
            description: `As \`DELETE /${kind}s/{id}/links/{to}\`, the record named by \`to\` in the query string or in a JSON body \`{ "to": "rec_…" }\`.`,
          },
          bodyParams: ['to'],
          errors: [404],
        }),
      )
      .input(participantPathInput(kind))
      .concat(declaredOutput(envelope(unlinked)))
      .mutation(async ({ ctx, input }) => ({ data: await service.unlink(ctx.db, ctx.actor, input) })),

    records: authedProcedure
      .meta(
        restRoute({
          scope: `${kind}s:read`,
          openapi: {
            method: 'GET',
            path: base,
            tags,
            summary: `List the records a ${kind} involves`,
            description: `The live records linked to the ${kind}, oldest link first, each with \`link: { label, primary, createdAt }\`. Page with \`page\` or \`cursor\`.`,
          },
          errors: [404],
        }),
      )
      .input(pagedIdInput(`${kind === 'deal' ? 'Deal' : 'Task'} id`))
      .concat(declaredOutput(filteredListEnvelope(participantRecordOutput)))
      .query(({ ctx, input }) => service.find(ctx.db, ctx.actor, input)),
  };
}
