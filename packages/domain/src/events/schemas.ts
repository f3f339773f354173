import { z } from 'zod';
import { type EventType, eventTypes } from '../shared/events.ts';
import { emptyAsAbsent } from '../shared/paging.ts';
import { instantOutput } from '../shared/schemas.ts';
import { eventPayloads } from './payloads.ts';

/**
 * `types`: event kinds separated by commas, each with blanks around it or none, empty items
 * and `*` (all) allowed; the document states the kinds through this pattern.
 */
const KIND = `(?:\\*|${eventTypes.map((kind) => kind.replace('.', '\\.')).join('|')})`;
const TYPES_PATTERN = new RegExp(`^\\s*(?:${KIND}\\s*)?(?:,\\s*(?:${KIND}\\s*)?)*$`);

const MAX_FEED_LIMIT = 200;
export const DEFAULT_FEED_LIMIT = 50;

export const findEventsInput = z.strictObject({
  after: z.string().max(500).transform(emptyAsAbsent).optional().meta({
    description:
      'The `meta.nextCursor` of the previous call: events after it. Omit (or leave empty, `after=`) to start from the oldest kept.',
  }),
  types: z
    .string()
    .max(1000)
    .regex(TYPES_PATTERN, {
      error: (issue) => {
        const names = String(issue.input).split(',');
        const unknown = names.map((name) => name.trim()).find((name) => !TYPES_PATTERN.test(name));
        return `"${unknown}" is not an event kind; kinds: ${eventTypes.join(', ')}`;
      },
    })
    .optional()
    .meta({
      description:
        'Comma-separated event kinds to list, e.g. `record.created,deal.stage_changed`; blanks around a kind are ignored. Default (also empty or `*`): all.',
    }),
  pageSize: z
    .number()
    .int()
    .min(1, `must be between 1 and ${MAX_FEED_LIMIT}`)
    .max(MAX_FEED_LIMIT, `must be between 1 and ${MAX_FEED_LIMIT}`)
    .optional()
    .meta({ description: `Events per call, 1 to ${MAX_FEED_LIMIT} (default ${DEFAULT_FEED_LIMIT}).` }),
  limit: z
    .number()
    .int()
    .min(1, `must be between 1 and ${MAX_FEED_LIMIT}`)
    .max(MAX_FEED_LIMIT, `must be between 1 and ${MAX_FEED_LIMIT}`)
    .optional()
    .meta({ description: 'Same as `pageSize` (kept for pollers written against it).' }),
});

/**
 * One kind's event as the feed lists it: `type` is the kind and `payload` that kind's webhook
 * body (payloads.ts), the same component the document's `webhooks` section names.
 */
const feedEventOf = <K extends EventType>(kind: K) => {
  const payload = eventPayloads[kind];
  const name = String(payload.meta()?.id).replace(/Event$/, '');
  return z
    .object({
      id: z.string().meta({ example: 'evt_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
      type: z.literal(kind),
      occurredAt: instantOutput(),
      payload: payload.meta({
        description: 'Exactly the body webhook receivers get for this event',
      }) as (typeof eventPayloads)[K],
    })
    .meta({ id: `${name}FeedEvent`, description: `A \`${kind}\` event of the feed.` });
};
type FeedEvents<T extends readonly EventType[]> = {
  -readonly [I in keyof T]: ReturnType<typeof feedEventOf<Extract<T[I], EventType>>>;
};

/**
 * An event of the feed: one variant per kind, so the document states a `oneOf` discriminated
 * on `type` whose `payload` is typed by kind (docs/api.md, "Events").
 */
const eventOutput = z
  .discriminatedUnion(
    'type',
    eventTypes.map((kind) => feedEventOf(kind)) as unknown as FeedEvents<typeof eventTypes>,
  )
  .meta({
    id: 'Event',
    description: 'An event: `type` is its kind, and `payload` the body webhook receivers get for it.',
  });

export const eventFeedOutput = z.object({
  data: z.array(eventOutput),
  meta: z
    .object({
      page: z.null().meta({ description: 'Always null: the feed pages by cursor only (`after`).' }),
      pageSize: z.number().int(),
      nextCursor: z.string().nullable().meta({
        description:
          'Pass as `after` next time. Set whenever events were returned (also on the last page, so a poller resumes from it); when none were, the `after` given (null without one).',
      }),
      hasMore: z.boolean().meta({ description: 'More events are listable right now: call again at once.' }),
      nextUrl: z.string().nullable().meta({
        description:
          'The absolute URL of the next call (this URL with `after` set to `nextCursor`, the `Link: rel="next"` target); null when `nextCursor` is, and over tRPC.',
      }),
    })
    .meta({ id: 'EventFeedMeta' }),
});
