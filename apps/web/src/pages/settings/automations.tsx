import { eventTypes } from '@crm/constants';
import { keepPreviousData, useMutation, useQueries, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  CopyButton,
  Field,
  formatInstant,
  ListView,
  Loading,
  PageHeader,
  ProblemMessage,
  SecretOnce,
  SelectField,
  usePager,
} from '../../lib/components.tsx';
import { api, type Inputs, type Outputs, problemOf, queryClient } from '../../lib/query.ts';
import { Link, navigate } from '../../lib/router.tsx';
import { trpc } from '../../lib/trpc.ts';
import {
  ActionBuilder,
  type Choices,
  type DraftAction,
  newDraft,
  toAction,
  toDraft,
} from './action-builder.tsx';

/** Folders, pipelines and members the action forms offer as choices. */
function useChoices(): { data: Choices | undefined; error: unknown } {
  const [folders, pipelines, members] = useQueries({
    queries: [
      api.folders.list.queryOptions({ pageSize: 200 }),
      api.pipelines.list.queryOptions({ pageSize: 200 }),
      api.workspace.members.queryOptions({ pageSize: 200 }),
    ],
  });
  const error = folders.error ?? pipelines.error ?? members.error;
  if (!folders.data || !pipelines.data || !members.data) return { data: undefined, error };
  return {
    data: { folders: folders.data.data, pipelines: pipelines.data.data, members: members.data.data },
    error,
  };
}

/** Reads the automations, one automation and its runs again after a change. */
const reloadWorkflows = () => queryClient.invalidateQueries(api.workflows.pathFilter());

type TriggerType = Inputs['workflows']['create']['trigger']['type'];

const TRIGGERS: { value: TriggerType; label: string }[] = [
  { value: 'INCOMING_WEBHOOK', label: 'Incoming webhook (a URL to POST to)' },
  ...eventTypes.map((kind) => ({ value: kind, label: `Event: ${kind}` })),
];

export function AutomationsPage() {
  const pager = usePager();
  const list = useQuery({
    ...api.workflows.list.queryOptions({ pageSize: 50, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
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
      <ListView query={list} what="automations" empty="No automations yet." pager={pager}>
        {(rows) => (
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
              {rows.map((w) => (
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
        )}
      </ListView>
    </>
  );
}

function CreateAutomation({ onCancel }: { onCancel: () => void }) {
  const choices = useChoices();
  const [name, setName] = useState('');
  const [trigger, setTrigger] = useState<TriggerType>('INCOMING_WEBHOOK');
  const [signed, setSigned] = useState(false);
  const [actions, setActions] = useState<DraftAction[]>([newDraft('CREATE_RECORD')]);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const submit = useMutation(
    api.workflows.create.mutationOptions({
      onSuccess: (workflow) => {
        if (workflow.data.secret) setCreated({ id: workflow.data.id, secret: workflow.data.secret });
        else navigate(`/settings/automations/${workflow.data.id}`);
        return reloadWorkflows();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({
      name,
      trigger: { type: trigger },
      actions: actions.map(toAction),
      ...(signed ? { requireSignature: true } : {}),
    });
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
  const problem = problemOf(submit.error ?? choices.error);
  const errors = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="New automation" noValidate>
      <h2>New automation</h2>
      <ProblemMessage
        problem={problem}
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
        onChange={(e) => setTrigger(e.target.value as TriggerType)}
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
        <button type="submit" disabled={submit.isPending}>
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
  const workflow = useQuery(api.workflows.get.queryOptions({ id }));
  const pager = usePager(id);
  const runs = useQuery({
    ...api.workflows.runs.queryOptions({ id, pageSize: 20, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const action = useMutation({
    mutationFn: (what: 'enable' | 'disable' | 'rotate' | 'delete') => workflowAction(id, what),
    onSuccess: (rotated, what) => {
      // A deleted automation's own page is being left: only the list is read again.
      if (what === 'delete') return queryClient.invalidateQueries(api.workflows.list.pathFilter());
      if (rotated) setSecret(rotated);
      return reloadWorkflows();
    },
  });
  const w = workflow.data?.data;
  return (
    <>
      <p>
        <Link to="/settings/automations">← Automations</Link>
      </p>
      <ProblemMessage problem={problemOf(workflow.error ?? action.error)} />
      {!w ? (
        workflow.error ? null : (
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
              <button type="button" onClick={() => action.mutate('disable')} disabled={action.isPending}>
                Disable
              </button>
            ) : (
              <button type="button" onClick={() => action.mutate('enable')} disabled={action.isPending}>
                Enable
              </button>
            )}
            <button type="button" onClick={() => setEditing(!editing)}>
              {editing ? 'Close the editor' : 'Edit actions'}
            </button>
            {w.trigger.type === 'INCOMING_WEBHOOK' ? (
              <button type="button" onClick={() => action.mutate('rotate')} disabled={action.isPending}>
                {w.requireSignature ? 'Rotate secret' : 'Require a signature'}
              </button>
            ) : null}
            <button
              type="button"
              className="danger"
              onClick={() => window.confirm(`Delete “${w.name}”?`) && action.mutate('delete')}
              disabled={action.isPending}
            >
              Delete
            </button>
          </div>
          {editing ? (
            <EditActions id={id} actions={w.actions} onSaved={() => setEditing(false)} />
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
        <button type="button" onClick={() => runs.refetch()}>
          Refresh runs
        </button>
      </h2>
      <ListView query={runs} what="runs" empty="No runs yet." pager={pager}>
        {(rows) => (
          <ul className="deliveries">
            {rows.map((run) => (
              <RunItem key={run.id} run={run} />
            ))}
          </ul>
        )}
      </ListView>
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
  const submit = useMutation(
    api.workflows.update.mutationOptions({
      onSuccess: () => {
        onSaved();
        return reloadWorkflows();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({ id, actions: drafts.map(toAction) });
  };
  const problem = problemOf(submit.error ?? choices.error);
  const errors = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Edit actions" noValidate>
      <ProblemMessage problem={problem} paths={Object.keys(errors).filter((p) => p.startsWith('actions'))} />
      {choices.data ? (
        <ActionBuilder actions={drafts} onChange={setDrafts} choices={choices.data} errors={errors} />
      ) : (
        <Loading what="choices" />
      )}
      <button type="submit" disabled={submit.isPending}>
        Save actions
      </button>
    </form>
  );
}

function RunItem({ run }: { run: Outputs['workflows']['runs']['data'][number] }) {
  const rerun = useMutation(api.runs.rerun.mutationOptions({ onSuccess: reloadWorkflows }));
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
        <ProblemMessage problem={problemOf(rerun.error)} />
        <button
          type="button"
          disabled={!finished || rerun.isPending}
          onClick={() => rerun.mutate({ id: run.id })}
        >
          Re-run
        </button>
      </details>
    </li>
  );
}

/** One of the automation page's buttons; a rotation answers the new secret, shown once. */
async function workflowAction(
  id: string,
  what: 'enable' | 'disable' | 'rotate' | 'delete',
): Promise<string | null> {
  if (what === 'delete') {
    await trpc.workflows.delete.mutate({ id });
    navigate('/settings/automations');
    return null;
  }
  if (what === 'rotate') return (await trpc.workflows.rotateSecret.mutate({ id })).data.secret;
  if (what === 'enable') await trpc.workflows.enable.mutate({ id });
  else await trpc.workflows.disable.mutate({ id });
  return null;
}
