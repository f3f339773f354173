import { eventFeedOutput, findEvents, findEventsInput } from '@crm/domain';
import type { z } from 'zod';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

export const eventsRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'events:read',
        openapi: {
          method: 'GET',
          path: '/events',
          tags: ['Events'],
          summary: 'List events (polling feed)',
          description:
            'The workspace’s events, oldest first, with the payloads webhook receivers get; kept 30 days. A polling fallback and a way to catch up after an outage: page with `after` = the returned `meta.nextCursor` and keep it for the next poll. Events are listed once committed and settled (a few seconds after they happen), so paging by the cursor never skips one. `types` filters by comma-separated kinds (an unknown kind is a 400).',
        },
      }),
    )
    .input(findEventsInput)
    .concat(declaredOutput(eventFeedOutput))
    // The stored payloads were written by each kind's builder, whose shape `eventPayloads`
    // states; the rows are typed as such here (event-payloads.test.ts checks real ones).
    .query(
      ({ ctx, input }) => findEvents(ctx.db, ctx.actor, input) as Promise<z.input<typeof eventFeedOutput>>,
    ),
});
