import { eventTypes } from '@crm/constants';
import { type FormEvent, useState } from 'react';
import {
  CopyButton,
  Field,
  formatInstant,
  Loading,
  PageHeader,
  Pager,
  ProblemMessage,
  SecretOnce,
  SelectField,
  usePager,
} from '../../lib/components.tsx';
import { Link, navigate } from '../../lib/router.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useData, useSubmit } from '../../lib/use-data.ts';
import {
  ActionBuilder,
  type Choices,
  type DraftAction,
  newDraft,
  toAction,
  toDraft,
} from './action-builder.tsx';

/** Folders, pipelines and members the action forms offer as choices. */
function useChoices() {
  return useData(async (): Promise<Choices> => {
    const [folders, pipelines, members] = await Promise.all([
      trpc.folders.list.query({ pageSize: 200 }),
      trpc.pipelines.list.query({ pageSize: 200 }),
      trpc.workspace.members.query({ pageSize: 200 }),
    ]);
    return { folders: folders.data, pipelines: pipelines.data, members: members.data };
  }, []);
}

const TRIGGERS = [
  { value: 'INCOMING_WEBHOOK', label: 'Incoming webhook (a URL to POST to)' },
  ...eventTypes.map((kind) => ({ value: kind, label: `Event: ${kind}` })),
];

export function AutomationsPage() {
  const pager = usePager();
  const list = useData(
    () => trpc.workflows.list.query({ pageSize: 50, cursor: pager.cursor }),
    [pager.cursor],
  );
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader title="Automations">
        {creating ? null : (
          <button type="button" onClick={() => setCreating(true)}>
            New automation
          </button>
        )}
      </PageHeader>
      <p>
        An automation runs its actions when its trigger fires: a POST to its own URL, or an event in this
        workspace.
      </p>
      {creating ? <CreateAutomation onCancel={() => setCreating(false)} /> : null}
      <h2>Automations</h2>
      <ProblemMessage problem={list.problem} />
      {list.data ? (
        list.data.data.length === 0 ? (
          <p>No automations yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Trigger</th>
                <th scope="col">Actions</th>
                <th scope="col">State</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to={`/settings/automations/${w.id}`}>{w.name}</Link>
                  </td>
                  <td>{w.trigger.type === 'INCOMING_WEBHOOK' ? 'incoming webhook' : w.trigger.type}</td>
                  <td>{w.actions.map((a) => String(a.type).toLowerCase().replace(/_/g, ' ')).join(' → ')}</td>
                  <td>{w.enabled ? 'enabled' : <span className="badge warn">disabled</span>}</td>
                  <td>{formatInstant(w.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : (
        <Loading what="automations" />
      )}
      {list.data ? <Pager pager={pager} nextCursor={list.data.meta.nextCursor} /> : null}
    </>
  );
}

function CreateAutomation({ onCancel }: { onCancel: () => void }) {
  const choices = useChoices();
  const [name, setName] = useState('');
  const [trigger, setTrigger] = useState('INCOMING_WEBHOOK');
  const [signed, setSigned] = useState(false);
  const [actions, setActions] = useState<DraftAction[]>([newDraft('CREATE_RECORD')]);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const submit = useSubmit(() =>
    trpc.workflows.create.mutate({
      name,
      trigger: { type: trigger as 'INCOMING_WEBHOOK' },
      actions: actions.map(toAction),
      ...(signed ? { requireSignature: true } : {}),
    }),
  );
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const workflow = await submit.run();
    if (!workflow) return;
    if (workflow.data.secret) setCreated({ id: workflow.data.id, secret: workflow.data.secret });
    else navigate(`/settings/automations/${workflow.data.id}`);
  };
  if (created) {
    return (
      <SecretOnce
        title="Signing secret of the new automation"
        secret={created.secret}
        onDone={() => navigate(`/settings/automations/${created.id}`)}
      />
    );
  }
  const errors = submit.problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="New automation" noValidate>
      <h2>New automation</h2>
      <ProblemMessage
        problem={submit.problem}
        paths={['name', 'trigger.type', ...Object.keys(errors).filter((p) => p.startsWith('actions'))]}
      />
      <Field
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        required
      />
      <SelectField
        label="Trigger"
        value={trigger}
        onChange={(e) => setTrigger(e.target.value)}
        options={TRIGGERS}
        error={errors['trigger.type']}
      />
      {trigger === 'INCOMING_WEBHOOK' ? (
        <label className="check">
          <input type="checkbox" checked={signed} onChange={(e) => setSigned(e.target.checked)} /> Require
          callers to sign the body with a secret (X-Service-Signature)
        </label>
      ) : null}
      {choices.data ? (
        <ActionBuilder actions={actions} onChange={setActions} choices={choices.data} errors={errors} />
      ) : (
        <Loading what="folders, pipelines and members" />
      )}
      <div className="actions">
        <button type="submit" disabled={submit.busy}>
          Create automation
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function AutomationPage({ id }: { id: string }) {
  const workflow = useData(() => trpc.workflows.get.query({ id }), [id]);
  const pager = usePager();
  const runs = useData(
    () => trpc.workflows.runs.query({ id, pageSize: 20, cursor: pager.cursor }),
    [id, pager.cursor],
  );
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const action = useSubmit(async (what: 'enable' | 'disable' | 'rotate' | 'delete') => {
    if (what === 'delete') {
      await trpc.workflows.delete.mutate({ id });
      navigate('/settings/automations');
      return;
    }
    if (what === 'rotate') setSecret((await trpc.workflows.rotateSecret.mutate({ id })).data.secret);
    else if (what === 'enable') await trpc.workflows.enable.mutate({ id });
    else await trpc.workflows.disable.mutate({ id });
    workflow.reload();
  });
  const w = workflow.data?.data;
  return (
    <>
      <p>
        <Link to="/settings/automations">← Automations</Link>
      </p>
      <ProblemMessage problem={workflow.problem ?? action.problem} />
      {!w ? (
        workflow.problem ? null : (
          <Loading what="the automation" />
        )
      ) : (
        <>
          <PageHeader title={w.name} />
          <dl className="facts">
            <dt>Trigger</dt>
            <dd>{w.trigger.type === 'INCOMING_WEBHOOK' ? 'Incoming webhook' : `Event ${w.trigger.type}`}</dd>
            {w.trigger.url ? (
              <>
                <dt>URL</dt>
                <dd>
                  <code className="secret-value" data-testid="trigger-url">
                    {w.trigger.url}
                  </code>{' '}
                  <CopyButton text={w.trigger.url} label="Copy URL" />
                  <p className="hint">
                    POST any JSON object to it (add <code>recordId</code> to run on a record)
                    {w.requireSignature
                      ? ', signed with the secret in X-Service-Signature: sha256=<hex HMAC>'
                      : ''}
                    .
                  </p>
                </dd>
              </>
            ) : null}
            <dt>State</dt>
            <dd>{w.enabled ? 'enabled' : 'disabled'}</dd>
            <dt>Updated</dt>
            <dd>{formatInstant(w.updatedAt)}</dd>
          </dl>
          {secret ? (
            <SecretOnce title="New signing secret" secret={secret} onDone={() => setSecret(null)} />
          ) : null}
          <div className="actions">
            {w.enabled ? (
              <button type="button" onClick={() => action.run('disable')} disabled={action.busy}>
                Disable
              </button>
            ) : (
              <button type="button" onClick={() => action.run('enable')} disabled={action.busy}>
                Enable
              </button>
            )}
            <button type="button" onClick={() => setEditing(!editing)}>
              {editing ? 'Close the editor' : 'Edit actions'}
            </button>
            {w.trigger.type === 'INCOMING_WEBHOOK' ? (
              <button type="button" onClick={() => action.run('rotate')} disabled={action.busy}>
                {w.requireSignature ? 'Rotate secret' : 'Require a signature'}
              </button>
            ) : null}
            <button
              type="button"
              className="danger"
              onClick={() => window.confirm(`Delete “${w.name}”?`) && action.run('delete')}
              disabled={action.busy}
            >
              Delete
            </button>
          </div>
          {editing ? (
            <EditActions
              id={id}
              actions={w.actions}
              onSaved={() => {
                setEditing(false);
                workflow.reload();
              }}
            />
          ) : (
            <ol className="steps">
              {w.actions.map((a, index) => (
                <li key={index} className="step">
                  <strong>
                    {index + 1}. {String(a.type)}
                  </strong>
                  <pre className="json">{JSON.stringify(withoutType(a), null, 2)}</pre>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
      <h2>
        Runs{' '}
        <button type="button" onClick={runs.reload}>
          Refresh runs
        </button>
      </h2>
      <ProblemMessage problem={runs.problem} />
      {runs.data ? (
        runs.data.data.length === 0 ? (
          <p>No runs yet.</p>
        ) : (
          <ul className="deliveries">
            {runs.data.data.map((run) => (
              <RunItem key={run.id} run={run} onRerun={runs.reload} />
            ))}
          </ul>
        )
      ) : (
        <Loading what="runs" />
      )}
      {runs.data ? <Pager pager={pager} nextCursor={runs.data.meta.nextCursor} /> : null}
    </>
  );
}

function withoutType(action: Record<string, unknown>) {
  const { type: _, ...rest } = action;
  return rest;
}

function EditActions({
  id,
  actions,
  onSaved,
}: {
  id: string;
  actions: Record<string, unknown>[];
  onSaved: () => void;
}) {
  const choices = useChoices();
  const [drafts, setDrafts] = useState<DraftAction[]>(() => actions.map(toDraft));
  const submit = useSubmit(() => trpc.workflows.update.mutate({ id, actions: drafts.map(toAction) }));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await submit.run()) onSaved();
  };
  const errors = submit.problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Edit actions" noValidate>
      <ProblemMessage
        problem={submit.problem}
        paths={Object.keys(errors).filter((p) => p.startsWith('actions'))}
      />
      {choices.data ? (
        <ActionBuilder actions={drafts} onChange={setDrafts} choices={choices.data} errors={errors} />
      ) : (
        <Loading what="choices" />
      )}
      <button type="submit" disabled={submit.busy}>
        Save actions
      </button>
    </form>
  );
}

interface Run {
  id: string;
  status: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  trigger: string;
  input?: unknown;
  recordId: string | null;
  error: string | null;
  rerunOf: string | null;
  createdAt: string;
  finishedAt: string | null;
  steps: {
    index: number;
    action: string;
    status: string;
    input?: unknown;
    output?: unknown;
    error: string | null;
    attempts: number;
    nextAttemptAt: string | null;
    startedAt: string | null;
    finishedAt: string | null;
  }[];
}

function RunItem({ run, onRerun }: { run: Run; onRerun: () => void }) {
  const rerun = useSubmit(() => trpc.runs.rerun.mutate({ id: run.id }));
  const finished = run.status === 'SUCCEEDED' || run.status === 'FAILED';
  return (
    <li className="delivery" data-testid="run">
      <details>
        <summary>
          <span className={`badge ${run.status.toLowerCase()}`}>{run.status}</span>{' '}
          {formatInstant(run.createdAt)} · {run.trigger.toLowerCase().replace('_', ' ')}
          {run.error ? <span className="field-error"> · {run.error}</span> : null}
        </summary>
        <p className="hint">
          {run.id}
          {run.recordId ? (
            <>
              {' · record '}
              <Link to={`/records/${run.recordId}`}>{run.recordId}</Link>
            </>
          ) : null}
          {run.rerunOf ? ` · re-run of ${run.rerunOf}` : ''}
        </p>
        <h4>Trigger input</h4>
        <pre className="json">{JSON.stringify(run.input, null, 2)}</pre>
        <ol className="steps">
          {run.steps.map((step) => (
            <li key={step.index} className="step">
              <strong>
                {step.index + 1}. {step.action}
              </strong>{' '}
              <span className={`badge ${step.status.toLowerCase()}`}>{step.status}</span>{' '}
              <small className="hint">
                {step.attempts} attempt{step.attempts === 1 ? '' : 's'}
                {step.nextAttemptAt ? ` · next ${formatInstant(step.nextAttemptAt)}` : ''}
              </small>
              <div className="columns">
                <div>
                  <h5>Input</h5>
                  <pre className="json">{JSON.stringify(step.input, null, 2) ?? '—'}</pre>
                </div>
                <div>
                  <h5>{step.error ? 'Error' : 'Output'}</h5>
                  {step.error ? (
                    <pre className="json field-error">{step.error}</pre>
                  ) : (
                    <pre className="json">{JSON.stringify(step.output, null, 2) ?? '—'}</pre>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ol>
        <ProblemMessage problem={rerun.problem} />
        <button
          type="button"
          disabled={!finished || rerun.busy}
          onClick={async () => {
            if (await rerun.run()) onRerun();
          }}
        >
          Re-run
        </button>
      </details>
    </li>
  );
}
