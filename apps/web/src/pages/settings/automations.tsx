import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
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
  usePager,
} from '../../lib/components.tsx';
import { api, type Outputs, problemOf, queryClient } from '../../lib/query.ts';
import { Link, navigate } from '../../lib/router.tsx';
import { trpc } from '../../lib/trpc.ts';
import { ActionBuilder } from './action-builder.tsx';
import {
  type DraftAction,
  errorsUnder,
  isUnder,
  newDraft,
  shownErrorPaths,
  toAction,
  toDraft,
} from './action-draft.ts';
import { reloadWorkflows, useChoices } from './automation-data.ts';
import {
  NextRun,
  NotifyField,
  TRIGGER_PATHS,
  type TriggerDraft,
  TriggerFields,
  toTrigger,
  toTriggerDraft,
  triggerText,
} from './automation-fields.tsx';
import { RunItem } from './run-view.tsx';

type Workflow = Outputs['workflows']['get']['data'];

/** The error paths a form shows next to its inputs: the rest are listed above it with their path. */
function shownPaths(actions: DraftAction[], errors: Record<string, string>): string[] {
  return [
    'name',
    ...TRIGGER_PATHS,
    ...Object.keys(errors).filter((p) => isUnder(p, 'notifyOnFailure')),
    ...shownErrorPaths(actions, 'actions', errors),
  ];
}

/** The messages about the members to notify, one line. */
const notifyError = (errors: Record<string, string>) => errorsUnder(errors, 'notifyOnFailure');

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
        An automation runs its actions when its trigger fires: a POST to its own URL, a schedule, or an event
        in this workspace.
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
                  <td>
                    {triggerText(w.trigger)}
                    {w.trigger.nextRunAt ? (
                      <>
                        <br />
                        <NextRun trigger={w.trigger} />
                      </>
                    ) : null}
                  </td>
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
  const [trigger, setTrigger] = useState<TriggerDraft>(() => toTriggerDraft());
  const [notify, setNotify] = useState<string[]>([]);
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
      trigger: toTrigger(trigger),
      actions: actions.map(toAction),
      ...(signed && trigger.type === 'INCOMING_WEBHOOK' ? { requireSignature: true } : {}),
      ...(notify.length > 0 ? { notifyOnFailure: notify } : {}),
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
      <ProblemMessage problem={problem} paths={shownPaths(actions, errors)} />
      <Field
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        required
      />
      <TriggerFields value={trigger} onChange={setTrigger} errors={errors} />
      {trigger.type === 'INCOMING_WEBHOOK' ? (
        <label className="check">
          <input type="checkbox" checked={signed} onChange={(e) => setSigned(e.target.checked)} /> Require
          callers to sign the body with a secret (X-Service-Signature)
        </label>
      ) : null}
      {choices.data ? (
        <>
          <ActionBuilder actions={actions} onChange={setActions} choices={choices.data} errors={errors} />
          <NotifyField
            members={choices.data.members}
            value={notify}
            onChange={setNotify}
            error={notifyError(errors)}
          />
        </>
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
    // Runs that are queued or running change in seconds: read them again until they stop.
    refetchInterval: (query) =>
      query.state.data?.data.some((run) => run.status === 'QUEUED' || run.status === 'RUNNING')
        ? 2000
        : false,
  });
  const members = useQuery(api.workspace.members.queryOptions({ pageSize: 200 }));
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
            <dd>
              {w.trigger.type === 'INCOMING_WEBHOOK'
                ? 'Incoming webhook'
                : w.trigger.type === 'SCHEDULE'
                  ? 'Schedule'
                  : `Event ${w.trigger.type}`}
            </dd>
            {w.trigger.type === 'SCHEDULE' ? (
              <>
                <dt>Schedule</dt>
                <dd>
                  <code>{w.trigger.cron}</code> in {w.trigger.timezone ?? 'UTC'}
                </dd>
                <dt>Next run</dt>
                <dd>
                  {w.trigger.nextRunAt ? (
                    <NextRun trigger={w.trigger} />
                  ) : (
                    <span className="hint">none while disabled</span>
                  )}
                </dd>
              </>
            ) : null}
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
            <dt>When a run fails</dt>
            <dd>
              {w.notifyOnFailure.length === 0
                ? 'nobody is told'
                : `a task for ${w.notifyOnFailure
                    .map((userId) => members.data?.data.find((m) => m.id === userId)?.name ?? userId)
                    .join(', ')}`}
            </dd>
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
              {editing ? 'Close the editor' : 'Edit'}
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
            <EditAutomation workflow={w} onSaved={() => setEditing(false)} />
          ) : (
            <ol className="steps">
              {w.actions.map((a, index) => (
                <li key={index} className="step">
                  <strong>
                    {index + 1}. {String(a.type)}
                  </strong>
                  {typeof a.name === 'string' ? <code> {a.name}</code> : null}
                  <pre className="json">{JSON.stringify(withoutTypeAndName(a), null, 2)}</pre>
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

function withoutTypeAndName(action: Record<string, unknown>) {
  const { type: _type, name: _name, ...rest } = action;
  return rest;
}

/** The automation's trigger, actions and members to notify, saved together. */
function EditAutomation({ workflow, onSaved }: { workflow: Workflow; onSaved: () => void }) {
  const choices = useChoices();
  const [trigger, setTrigger] = useState<TriggerDraft>(() => toTriggerDraft(workflow.trigger));
  const [drafts, setDrafts] = useState<DraftAction[]>(() => workflow.actions.map(toDraft));
  const [notify, setNotify] = useState<string[]>(workflow.notifyOnFailure);
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
    const next = toTrigger(trigger);
    const saved = toTrigger(toTriggerDraft(workflow.trigger));
    submit.mutate({
      id: workflow.id,
      // The trigger only when it changed: saving the same one again would change nothing.
      ...(JSON.stringify(next) === JSON.stringify(saved) ? {} : { trigger: next }),
      actions: drafts.map(toAction),
      notifyOnFailure: notify,
    });
  };
  const problem = problemOf(submit.error ?? choices.error);
  const errors = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Edit the automation" noValidate>
      <ProblemMessage problem={problem} paths={shownPaths(drafts, errors)} />
      <TriggerFields value={trigger} onChange={setTrigger} errors={errors} />
      {choices.data ? (
        <>
          <ActionBuilder actions={drafts} onChange={setDrafts} choices={choices.data} errors={errors} />
          <NotifyField
            members={choices.data.members}
            value={notify}
            onChange={setNotify}
            error={notifyError(errors)}
          />
        </>
      ) : (
        <Loading what="choices" />
      )}
      <button type="submit" disabled={submit.isPending}>
        Save
      </button>
    </form>
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
