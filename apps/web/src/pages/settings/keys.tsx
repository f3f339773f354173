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

const reloadKeys = () => queryClient.invalidateQueries(api.keys.list.pathFilter());

export function KeysPage() {
  const keys = useQuery(api.keys.list.queryOptions());
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="API keys" />
      <p>
        Keys let other systems call the REST API at <code>/api/v1</code> as you, with{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      {secret ? (
        <SecretOnce title="Your new API key" secret={secret} onDone={() => setSecret(null)} />
      ) : (
        <CreateKeyForm onCreated={setSecret} />
      )}
      <h2>Keys of this workspace</h2>
      <ListView query={keys} what="keys" empty="No keys yet.">
        {(rows) => <KeyTable keys={rows} />}
      </ListView>
    </>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const [name, setName] = useState('');
  const [read, setRead] = useState(true);
  const [write, setWrite] = useState(true);
  const [expires, setExpires] = useState('');
  const submit = useMutation(
    api.keys.create.mutationOptions({
      onSuccess: (created) => {
        setName('');
        setExpires('');
        onCreated(created.data.secret);
        return reloadKeys();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({
      name,
      scopes: [...(read ? (['read'] as const) : []), ...(write ? (['write'] as const) : [])],
      // A date picker gives a day: the key works until the end of it, local time.
      expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
    });
  };
  const problem = problemOf(submit.error);
  const fields = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Create an API key" noValidate>
      <h2>Create a key</h2>
      <ProblemMessage problem={problem} paths={['name', 'scopes', 'expiresAt']} />
      <Field
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fields.name}
        required
      />
      <fieldset aria-describedby={fields.scopes ? 'scopes-error' : undefined}>
        <legend>Scopes</legend>
        <label>
          <input type="checkbox" checked={read} onChange={(e) => setRead(e.target.checked)} /> read
        </label>
        <label>
          <input type="checkbox" checked={write} onChange={(e) => setWrite(e.target.checked)} /> write
        </label>
        {fields.scopes ? (
          <small id="scopes-error" className="field-error">
            Pick at least one scope ({fields.scopes})
          </small>
        ) : null}
      </fieldset>
      <Field
        label="Expires on (optional)"
        type="date"
        value={expires}
        onChange={(e) => setExpires(e.target.value)}
        error={fields.expiresAt}
        hint="Leave empty for a key that does not expire."
      />
      <button type="submit" disabled={submit.isPending}>
        Create key
      </button>
    </form>
  );
}

function KeyTable({ keys }: { keys: Outputs['keys']['list']['data'] }) {
  const revoke = useMutation(api.keys.revoke.mutationOptions({ onSuccess: reloadKeys }));
  return (
    <>
      <ProblemMessage problem={problemOf(revoke.error)} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => {
            const expired = key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now();
            return (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{key.scopes.join(', ')}</td>
                <td>{key.lastUsedAt ? formatInstant(key.lastUsedAt) : 'never'}</td>
                <td>
                  {key.expiresAt ? `${formatInstant(key.expiresAt)}${expired ? ' (expired)' : ''}` : 'never'}
                </td>
                <td>{formatInstant(key.createdAt)}</td>
                <td>
                  {key.revokedAt ? (
                    <span className="badge">revoked {formatInstant(key.revokedAt)}</span>
                  ) : (
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Revoke ${key.name}`}
                      onClick={() => {
                        if (window.confirm(`Revoke "${key.name}"? Calls with it stop working at once.`))
                          revoke.mutate({ id: key.id });
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
