import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { formatInstant, ListView, ProblemMessage } from '../../lib/components.tsx';
import { api, type Outputs, problemOf, queryClient } from '../../lib/query.ts';

type Entry = Outputs['records']['history']['data'][number];
type Provenance = Pick<Entry, 'actor' | 'source'>;

const HISTORY_PAGE = 20;

/** How a change was made, in words: "Zapier sync (API key, REST)", "Ada (web)". */
export function madeBy({ actor, source }: Provenance): string {
  const kind: Record<Provenance['actor']['type'], string> = {
    user: '',
    apiKey: 'API key',
    workflow: 'automation run',
    import: 'CSV import',
    mcp: 'agent',
    system: 'the service',
    job: 'job',
    app: 'app',
  };
  const surface: Record<Provenance['source'], string> = {
    web: 'web app',
    rest: 'REST',
    trpc: 'tRPC',
    mcp: 'MCP',
    workflow: 'automation',
    import: 'import',
    system: 'service',
    job: 'job',
  };
  if (actor.type === 'system') return `the service (${actor.name})`;
  const what = kind[actor.type];
  return `${actor.name} (${what ? `${what}, ` : ''}${surface[source]})`;
}

/**
 * The record's field history (GET /api/v1/records/{id}/history, docs/api.md "History and
 * provenance"): every change of a field, newest first, with who made it, how, and a Revert
 * button that sets the field back as a new change. A field changed since answers 409; the
 * page then asks whether to set it back anyway.
 */
export function FieldHistory({
  recordId,
  label,
  value,
}: {
  recordId: string;
  label: (field: string) => string;
  value: (field: string, v: unknown) => ReactNode;
}) {
  const history = useInfiniteQuery(
    api.records.history.infiniteQueryOptions(
      { id: recordId, pageSize: HISTORY_PAGE },
      { getNextPageParam: (page) => page.meta.nextCursor ?? undefined },
    ),
  );
  const revert = useMutation(
    api.records.revertHistory.mutationOptions({
      onSuccess: async () => {
        announce('Change reverted');
        await queryClient.invalidateQueries(api.records.pathFilter());
      },
    }),
  );
  const onRevert = (entry: Entry) => {
    revert.mutate(
      { id: recordId, entryId: entry.id },
      {
        onError: (error) => {
          const problem = problemOf(error);
          if (
            problem?.status === 409 &&
            window.confirm(
              `${label(entry.field)} changed after this. Set it back to the value before anyway?`,
            )
          ) {
            revert.mutate({ id: recordId, entryId: entry.id, force: 'true' });
          }
        },
      },
    );
  };
  const shown = history.data ? { data: history.data.pages.flatMap((page) => page.data) } : undefined;
  const problem = problemOf(revert.error);
  return (
    <section aria-labelledby="history-heading" className="timeline">
      <h2 id="history-heading">Field history</h2>
      {problem && problem.status !== 409 ? <ProblemMessage problem={problem} /> : null}
      <ListView
        query={{ data: shown, error: history.error, isPending: history.isPending }}
        what="the field history"
        empty="No field has changed yet."
      >
        {(rows) => (
          <ol className="feed" aria-label="Field history, newest first">
            {rows.map((entry) => (
              <li key={entry.id} data-field={entry.field}>
                <p>
                  {entry.from === null ? (
                    <>
                      {label(entry.field)} set to {value(entry.field, entry.to)}
                    </>
                  ) : entry.to === null ? (
                    <>
                      {label(entry.field)} cleared (was {value(entry.field, entry.from)})
                    </>
                  ) : (
                    <>
                      {label(entry.field)} changed from {value(entry.field, entry.from)} to{' '}
                      {value(entry.field, entry.to)}
                    </>
                  )}
                </p>
                <small>
                  by {madeBy(entry)} · <time dateTime={entry.at}>{formatInstant(entry.at)}</time>
                </small>{' '}
                <button
                  type="button"
                  className="link"
                  aria-label={`Revert: set ${label(entry.field)} back`}
                  disabled={revert.isPending}
                  onClick={() => onRevert(entry)}
                >
                  Revert
                </button>
              </li>
            ))}
          </ol>
        )}
      </ListView>
      {history.hasNextPage ? (
        <button type="button" onClick={() => history.fetchNextPage()} disabled={history.isFetchingNextPage}>
          Show more
        </button>
      ) : null}
    </section>
  );
}
