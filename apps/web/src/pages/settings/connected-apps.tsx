import { useMutation, useQuery } from '@tanstack/react-query';
import { formatInstant, PageHeader, ProblemMessage } from '../../lib/components.tsx';
import { api, problemOf, queryClient } from '../../lib/query.ts';

const reload = () => queryClient.invalidateQueries(api.oauth.connectedApps.pathFilter());

/**
 * The apps the signed-in user allowed over OAuth (docs/mcp.md, "OAuth"): each with the scopes
 * given, and Revoke, which ends its access at once (its next request is refused).
 */
export function ConnectedAppsPage() {
  const apps = useQuery(api.oauth.connectedApps.queryOptions());
  const revoke = useMutation(api.oauth.revoke.mutationOptions({ onSuccess: reload }));
  const list = apps.data?.data ?? [];
  return (
    <>
      <PageHeader title="Connected apps" />
      <p>
        Apps and agents you allowed to act for you over OAuth, through the REST API at <code>/api/v1</code> or
        the MCP server at <code>/mcp</code>. Each one can do what you allowed it, never more than your role;
        what it does is recorded as yours, made through the app.
      </p>
      <ProblemMessage problem={problemOf(apps.error ?? revoke.error)} />
      {apps.isPending ? (
        <p className="hint">Loading…</p>
      ) : list.length === 0 ? (
        <p className="hint">
          No app is connected. An app or MCP client that signs in with OAuth appears here.
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Allowed</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((app) => (
              <tr key={app.grantId}>
                <td>{app.clientName}</td>
                <td>{app.scopes.join(', ')}</td>
                <td>{formatInstant(app.authorizedAt)}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Revoke ${app.clientName}`}
                    onClick={() => {
                      if (window.confirm(`Revoke ${app.clientName}? It loses access at once.`))
                        revoke.mutate({ grantId: app.grantId });
                    }}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
