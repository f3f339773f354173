import { allScopes, type Scope } from '@crm/constants';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  Field,
  formatInstant,
  ListView,
  PageHeader,
  ProblemMessage,
  SecretOnce,
} from '../../lib/components.tsx';
import { api, type Outputs, problemOf, queryClient } from '../../lib/query.ts';

const reloadApps = () => queryClient.invalidateQueries(api.oauth.apps.pathFilter());

type Registered = Outputs['oauth']['registerApp']['data'];

/**
 * The apps of the workspace (docs/apps.md, "Apps of the workspace"): an owner or admin
 * registers one with the scopes it needs and gets its client id and secret (the secret shown
 * once); the app then gets tokens for itself with the client credentials grant. Remove ends
 * its access at once.
 */
export function AppsPage() {
  const apps = useQuery(api.oauth.apps.queryOptions());
  const [registered, setRegistered] = useState<Registered | null>(null);
  return (
    <>
      <PageHeader title="Apps" />
      <p>
        An app of the workspace calls the REST API at <code>/api/v1</code> with tokens it gets for itself from{' '}
        <code>/oauth/token</code> (the client credentials grant), with the scopes you give it here. Its
        changes are recorded as the app's. Apps that act for one user sign in with OAuth instead, and appear
        under Connected apps.
      </p>
      {registered ? (
        <section aria-label="The new app">
          <p>
            Client id of {registered.name}: <code data-testid="client-id">{registered.clientId}</code>
          </p>
          <SecretOnce
            title={`Client secret of ${registered.name}`}
            secret={registered.clientSecret}
            onDone={() => setRegistered(null)}
          />
        </section>
      ) : (
        <RegisterAppForm onRegistered={setRegistered} />
      )}
      <h2>Apps of this workspace</h2>
      <ListView query={apps} what="apps" empty="No app is registered.">
        {(rows) => <AppTable apps={rows} />}
      </ListView>
    </>
  );
}

function RegisterAppForm({ onRegistered }: { onRegistered: (app: Registered) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<Scope>>(new Set(['records:read'] as Scope[]));
  const submit = useMutation(
    api.oauth.registerApp.mutationOptions({
      onSuccess: (answer) => {
        setName('');
        onRegistered(answer.data);
        return reloadApps();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({ name, scopes: [...scopes] });
  };
  const problem = problemOf(submit.error);
  const fields = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Register an app" noValidate>
      <h2>Register an app</h2>
      <ProblemMessage problem={problem} paths={['name', 'scopes']} />
      <Field
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fields.name}
        required
      />
      <fieldset aria-describedby={fields.scopes ? 'app-scopes-error' : undefined}>
        <legend>What the app may do</legend>
        {allScopes.map((scope) => (
          <label key={scope}>
            <input
              type="checkbox"
              checked={scopes.has(scope)}
              onChange={(e) => {
                const next = new Set(scopes);
                if (e.target.checked) next.add(scope);
                else next.delete(scope);
                setScopes(next);
              }}
            />{' '}
            <code>{scope}</code>
          </label>
        ))}
        {fields.scopes ? (
          <p className="field-error" id="app-scopes-error">
            {fields.scopes}
          </p>
        ) : null}
      </fieldset>
      <button type="submit" disabled={submit.isPending}>
        Register
      </button>
    </form>
  );
}

function AppTable({ apps }: { apps: Outputs['oauth']['apps']['data'] }) {
  const remove = useMutation(api.oauth.removeApp.mutationOptions({ onSuccess: reloadApps }));
  return (
    <>
      <ProblemMessage problem={problemOf(remove.error)} />
      <table>
        <thead>
          <tr>
            <th scope="col">App</th>
            <th scope="col">Client id</th>
            <th scope="col">May</th>
            <th scope="col">Registered</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {apps.map((app) => (
            <tr key={app.clientId}>
              <td>{app.name}</td>
              <td>
                <code>{app.clientId}</code>
              </td>
              <td>{app.scopes.join(', ')}</td>
              <td>
                {formatInstant(app.createdAt)} by {app.createdBy.name}
              </td>
              <td>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Remove ${app.name}`}
                  onClick={() => {
                    if (window.confirm(`Remove ${app.name}? It loses access at once.`))
                      remove.mutate({ clientId: app.clientId });
                  }}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
