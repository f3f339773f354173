import { type FormEvent, useState } from 'react';
import {
  Field,
  formatInstant,
  Loading,
  PageHeader,
  ProblemMessage,
  SecretOnce,
} from '../../lib/components.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useData, useSubmit } from '../../lib/use-data.ts';

export function KeysPage() {
  const keys = useData(() => trpc.keys.list.query(), []);
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
        <CreateKeyForm
          onCreated={(value) => {
            setSecret(value);
            keys.reload();
          }}
        />
      )}
      <h2>Keys of this workspace</h2>
      <ProblemMessage problem={keys.problem} />
      {keys.data ? <KeyTable keys={keys.data.data} onChange={keys.reload} /> : <Loading what="keys" />}
    </>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const [name, setName] = useState('');
  const [read, setRead] = useState(true);
  const [write, setWrite] = useState(true);
  const [expires, setExpires] = useState('');
  const submit = useSubmit(() =>
    trpc.keys.create.mutate({
      name,
      scopes: [...(read ? (['read'] as const) : []), ...(write ? (['write'] as const) : [])],
      // A date picker gives a day: the key works until the end of it, local time.
      expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
    }),
  );
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await submit.run();
    if (created) {
      setName('');
      setExpires('');
      onCreated(created.data.secret);
    }
  };
  const fields = submit.problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Create an API key" noValidate>
      <h2>Create a key</h2>
      <ProblemMessage problem={submit.problem} paths={['name', 'scopes', 'expiresAt']} />
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
      <button type="submit" disabled={submit.busy}>
        Create key
      </button>
    </form>
  );
}

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

function KeyTable({ keys, onChange }: { keys: KeyRow[]; onChange: () => void }) {
  const revoke = useSubmit((id: string) => trpc.keys.revoke.mutate({ id }));
  if (keys.length === 0) return <p>No keys yet.</p>;
  return (
    <>
      <ProblemMessage problem={revoke.problem} />
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
                      onClick={async () => {
                        if (!window.confirm(`Revoke "${key.name}"? Calls with it stop working at once.`))
                          return;
                        if (await revoke.run(key.id)) onChange();
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
