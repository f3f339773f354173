import {
  managerResources,
  type Scope,
  type ScopeResource,
  scopeResources,
  workspaceWideScopes,
} from '@crm/constants';
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
import { useSession } from '../../lib/session.tsx';

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

type Access = 'all' | 'read' | 'chosen';
type Action = 'read' | 'write' | 'delete';

function CreateKeyForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const session = useSession();
  const member = session.user.role === 'MEMBER';
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const [name, setName] = useState('');
  const [access, setAccess] = useState<Access>('all');
  const [chosen, setChosen] = useState<ReadonlySet<Scope>>(new Set(['records:read'] as Scope[]));
  const [limited, setLimited] = useState(false);
  const [folderIds, setFolderIds] = useState<ReadonlySet<string>>(new Set());
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
  const toggle = <T,>(set: ReadonlySet<T>, value: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({
      name,
      scopes:
        access === 'all'
          ? ['read', 'write']
          : access === 'read'
            ? ['read']
            : [...chosen].filter((scope) => !limited || !workspaceWideScopes.includes(scope)),
      folderIds: limited ? [...folderIds] : null,
      // A date picker gives a day: the key works until the end of it, local time.
      expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
    });
  };
  const problem = problemOf(submit.error);
  const fields = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Create an API key" noValidate>
      <h2>Create a key</h2>
      <ProblemMessage problem={problem} paths={['name', 'scopes', 'folderIds', 'expiresAt']} />
      <Field
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fields.name}
        required
      />
      <fieldset aria-describedby={fields.scopes ? 'scopes-error' : 'scopes-hint'}>
        <legend>What the key may do</legend>
        <label>
          <input type="radio" name="access" checked={access === 'all'} onChange={() => setAccess('all')} />{' '}
          Everything you may do (<code>read</code>, <code>write</code>)
        </label>
        <label>
          <input type="radio" name="access" checked={access === 'read'} onChange={() => setAccess('read')} />{' '}
          Read only (<code>read</code>)
        </label>
        <label>
          <input
            type="radio"
            name="access"
            checked={access === 'chosen'}
            onChange={() => setAccess('chosen')}
          />{' '}
          Choose, resource by resource
        </label>
        {access === 'chosen' ? (
          <table className="scope-grid" aria-label="Scopes">
            <thead>
              <tr>
                <th scope="col">Resource</th>
                {(['read', 'write', 'delete'] as const).map((action) => (
                  <th scope="col" key={action}>
                    {action}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(Object.keys(scopeResources) as ScopeResource[]).map((resource) => {
                const held = !member || !managerResources.includes(resource);
                return (
                  <tr key={resource}>
                    <th scope="row">{resource}</th>
                    {(['read', 'write', 'delete'] as const).map((action: Action) => {
                      const scope = `${resource}:${action}` as Scope;
                      const exists = (scopeResources[resource] as readonly string[]).includes(action);
                      // A key limited to folders cannot hold what reaches every folder.
                      const wide = limited && workspaceWideScopes.includes(scope);
                      return (
                        <td key={action}>
                          {exists ? (
                            <input
                              type="checkbox"
                              aria-label={scope}
                              disabled={!held || wide}
                              title={
                                !held
                                  ? 'Only an owner or admin holds this'
                                  : wide
                                    ? 'Not for a key limited to folders: it reaches the records of every folder'
                                    : undefined
                              }
                              checked={chosen.has(scope) && !wide}
                              onChange={(e) => setChosen(toggle(chosen, scope, e.target.checked))}
                            />
                          ) : null}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : null}
        <small id="scopes-hint" className="hint">
          A key never does more than you may:{' '}
          {member
            ? 'as a member, yours reach no webhooks, automations or audit log.'
            : 'as an owner or admin, everything.'}
          {limited
            ? ` A key limited to folders never holds ${workspaceWideScopes.join(', ')}: webhook subscriptions and workflows reach the records of every folder.`
            : null}
        </small>
        {fields.scopes ? (
          <small id="scopes-error" className="field-error">
            {fields.scopes}
          </small>
        ) : null}
      </fieldset>
      <fieldset aria-describedby={fields.folderIds ? 'folders-error' : undefined}>
        <legend>Folders</legend>
        <label>
          <input type="radio" name="folders" checked={!limited} onChange={() => setLimited(false)} /> Every
          folder
        </label>
        <label>
          <input type="radio" name="folders" checked={limited} onChange={() => setLimited(true)} /> Only these
          folders (records elsewhere are not found for the key)
        </label>
        {limited ? (
          <div className="folder-choices">
            {(folders.data?.data ?? []).map((folder) => (
              <label key={folder.id}>
                <input
                  type="checkbox"
                  checked={folderIds.has(folder.id)}
                  onChange={(e) => setFolderIds(toggle(folderIds, folder.id, e.target.checked))}
                />{' '}
                {folder.name}
              </label>
            ))}
          </div>
        ) : null}
        {fields.folderIds ? (
          <small id="folders-error" className="field-error">
            {fields.folderIds}
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
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const folderNames = new Map((folders.data?.data ?? []).map((f) => [f.id, f.name]));
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
                <td>
                  {key.scopes.join(', ')}
                  {key.folderIds ? (
                    <>
                      <br />
                      <small>only {key.folderIds.map((id) => folderNames.get(id) ?? id).join(', ')}</small>
                    </>
                  ) : null}
                </td>
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
