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
import { canManage, openWorkspace, useSession } from '../../lib/session.tsx';

const reloadSandboxes = () => queryClient.invalidateQueries(api.sandboxes.list.pathFilter());

type Made = Outputs['sandboxes']['create']['data'];

const COPIES = ['folders', 'pipelines', 'workflows', 'webhooks', 'views'] as const;

/** `1 folder`, `3 folders`. */
const count = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;

/**
 * The sandboxes of the workspace (docs/operations.md, "Sandboxes"): every member sees them and
 * opens one with one click (the session moves there; a banner leads back); an owner or admin
 * makes one, with what to copy, sample records and the URLs it may send to, and deletes one.
 */
export function SandboxesPage() {
  const session = useSession();
  const sandboxes = useQuery(api.sandboxes.list.queryOptions({}));
  const [made, setMade] = useState<Made | null>(null);
  return (
    <>
      <PageHeader title="Sandboxes" />
      <p>
        A sandbox is a workspace made from this one's configuration, for trying integrations and automations:
        its webhooks and HTTP requests go only to the URLs it allows, and every other one is captured and
        shown, not sent.
      </p>
      {canManage(session) ? (
        made ? (
          <section aria-label="The new sandbox">
            <p>
              {made.name} holds {count(made.copied.folders, 'folder')},{' '}
              {count(made.copied.workflows, 'automation')}, {count(made.copied.webhooks, 'webhook')} and{' '}
              {count(made.copied.records, 'sample record')}.
            </p>
            <SecretOnce title={`API key of ${made.name}`} secret={made.apiKey} onDone={() => setMade(null)} />
          </section>
        ) : (
          <MakeSandboxForm onMade={setMade} />
        )
      ) : null}
      <h2>Sandboxes of this workspace</h2>
      <ListView query={sandboxes} what="sandboxes" empty="This workspace has no sandbox.">
        {(rows) => <SandboxTable sandboxes={rows} manage={canManage(session)} />}
      </ListView>
    </>
  );
}

function MakeSandboxForm({ onMade }: { onMade: (made: Made) => void }) {
  const [name, setName] = useState('');
  const [samples, setSamples] = useState('100');
  const [allowUrls, setAllowUrls] = useState('');
  const [copy, setCopy] = useState<ReadonlySet<string>>(new Set(COPIES));
  const submit = useMutation(
    api.sandboxes.create.mutationOptions({
      onSuccess: (answer) => {
        setName('');
        onMade(answer.data);
        return reloadSandboxes();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const urls = allowUrls
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    submit.mutate({
      name,
      copy: COPIES.filter((c) => copy.has(c)),
      sampleRecords: Number(samples),
      allowUrls: urls,
    });
  };
  const problem = problemOf(submit.error);
  const fields = problem?.fields ?? {};
  const urlError = Object.entries(fields).find(([path]) => path.startsWith('allowUrls'))?.[1];
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Make a sandbox" noValidate>
      <h2>Make a sandbox</h2>
      <ProblemMessage
        problem={problem}
        paths={[
          'name',
          'copy',
          'sampleRecords',
          ...Object.keys(fields).filter((path) => path.startsWith('allowUrls')),
        ]}
      />
      <Field
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fields.name}
        required
      />
      <fieldset aria-describedby={fields.copy ? 'sandbox-copy-error' : undefined}>
        <legend>Copy</legend>
        {COPIES.map((part) => (
          <label key={part}>
            <input
              type="checkbox"
              checked={copy.has(part)}
              onChange={(e) => {
                const next = new Set(copy);
                if (e.target.checked) next.add(part);
                else next.delete(part);
                setCopy(next);
              }}
            />{' '}
            {part}
          </label>
        ))}
        {fields.copy ? (
          <p className="field-error" id="sandbox-copy-error">
            {fields.copy}
          </p>
        ) : null}
      </fieldset>
      <Field
        label="Sample records"
        type="number"
        min={0}
        max={10000}
        value={samples}
        onChange={(e) => setSamples(e.target.value)}
        error={fields.sampleRecords}
        hint="The newest records of the copied folders, up to 10,000"
      />
      <div className="field">
        <label htmlFor="sandbox-allow">URLs it may send to (one per line)</label>
        <textarea
          id="sandbox-allow"
          rows={3}
          value={allowUrls}
          onChange={(e) => setAllowUrls(e.target.value)}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? 'sandbox-allow-error' : undefined}
          placeholder="https://hooks.example.com/test"
        />
        {urlError ? (
          <p className="field-error" id="sandbox-allow-error">
            {urlError}
          </p>
        ) : null}
      </div>
      <button type="submit" disabled={submit.isPending}>
        Make the sandbox
      </button>
    </form>
  );
}

function SandboxTable({
  sandboxes,
  manage,
}: {
  sandboxes: Outputs['sandboxes']['list']['data'];
  manage: boolean;
}) {
  const remove = useMutation(api.sandboxes.delete.mutationOptions({ onSuccess: reloadSandboxes }));
  const [opening, setOpening] = useState<string | null>(null);
  const [openProblem, setOpenProblem] = useState<unknown>(null);
  return (
    <>
      <ProblemMessage problem={problemOf(remove.error ?? openProblem)} />
      <table>
        <thead>
          <tr>
            <th scope="col">Sandbox</th>
            <th scope="col">Sends to</th>
            <th scope="col">Made</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sandboxes.map((sandbox) => (
            <tr key={sandbox.id}>
              <td>{sandbox.name}</td>
              <td>
                {sandbox.allowUrls.length > 0
                  ? sandbox.allowUrls.join(', ')
                  : 'nowhere: everything is captured'}
              </td>
              <td>{formatInstant(sandbox.createdAt)}</td>
              <td>
                <button
                  type="button"
                  disabled={opening !== null}
                  onClick={() => {
                    setOpening(sandbox.id);
                    openWorkspace(sandbox.id).catch((error: unknown) => {
                      setOpening(null);
                      setOpenProblem(error);
                    });
                  }}
                >
                  Open {sandbox.name}
                </button>{' '}
                {manage ? (
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Delete ${sandbox.name}`}
                    onClick={() => {
                      if (window.confirm(`Delete ${sandbox.name}? Its records, keys and history go with it.`))
                        remove.mutate({ id: sandbox.id });
                    }}
                  >
                    Delete
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
