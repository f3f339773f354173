import { actorTypes, auditActions } from '@crm/constants';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatInstant, ListView, PageHeader } from '../../lib/components.tsx';
import { api, type Inputs } from '../../lib/query.ts';
import { madeBy } from '../record/history.tsx';

type Filters = Pick<Inputs['audit']['list'], 'action' | 'actorType'>;
type Action = NonNullable<Filters['action']>;
type ActorType = NonNullable<Filters['actorType']>;

/**
 * The workspace's audit log (GET /api/v1/audit-log, docs/api.md "Audit log"): who changed keys,
 * webhooks, automations, members and folder fields, who signed in (and who failed to), what
 * was exported and purged; newest first, narrowed by action and kind of actor.
 */
export function AuditLogPage() {
  const [filters, setFilters] = useState<Filters>({});
  const log = useInfiniteQuery(
    api.audit.list.infiniteQueryOptions(
      { ...filters, pageSize: 50 },
      { getNextPageParam: (page) => page.meta.nextCursor ?? undefined },
    ),
  );
  const shown = log.data ? { data: log.data.pages.flatMap((page) => page.data) } : undefined;
  return (
    <>
      <PageHeader title="Audit log" />
      <p>
        Changes to who may do what and to the shape of the data, sign-ins, exports and purges, kept a year.
        Record, deal and task changes are in each one’s field history.
      </p>
      <fieldset className="filters">
        <legend className="visually-hidden">Filter the audit log</legend>
        <label>
          Action{' '}
          <select
            value={filters.action ?? ''}
            onChange={(e) =>
              setFilters({ ...filters, action: (e.target.value || undefined) as Action | undefined })
            }
          >
            <option value="">any</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Actor{' '}
          <select
            value={filters.actorType ?? ''}
            onChange={(e) =>
              setFilters({ ...filters, actorType: (e.target.value || undefined) as ActorType | undefined })
            }
          >
            <option value="">anyone</option>
            {actorTypes.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <ListView
        query={{ data: shown, error: log.error, isPending: log.isPending }}
        what="the audit log"
        empty="Nothing yet."
      >
        {(rows) => (
          <table aria-label="Audit log, newest first">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">By</th>
                <th scope="col">On</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.at}>{formatInstant(entry.at)}</time>
                  </td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>{madeBy(entry)}</td>
                  <td>{entry.target ? <code>{entry.target.id}</code> : ''}</td>
                  <td>
                    <small>
                      {Object.keys(entry.details).length > 0 ? JSON.stringify(entry.details) : ''}
                    </small>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListView>
      {log.hasNextPage ? (
        <button type="button" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Show more
        </button>
      ) : null}
    </>
  );
}
