import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatInstant, ProblemMessage } from '../../lib/components.tsx';
import { api, type Outputs, problemOf } from '../../lib/query.ts';
import { Link } from '../../lib/router.tsx';
import { reloadWorkflows } from './automation-data.ts';

/**
 * One run of an automation (docs/workflows.md, "Runs"): its steps as the tree of the actions
 * (a branch's arms under the branch, a loop's items under the loop), each with its status, and
 * what can be done to it: answer the approval it waits on, cancel it while it has not ended,
 * run it again once it has.
 */

type Run = Outputs['workflows']['runs']['data'][number];
type Step = Run['steps'][number];

interface StepNode {
  step: Step;
  /** The lists under the step: a branch's "Then" and "Else", a loop's "Item 0", "Item 1", … */
  groups: { key: string; label: string; nodes: StepNode[] }[];
}

/** Where a step sits: the step above it and the list of it that holds it; null at the top. */
function parentOf(path: string): { path: string; group: string; label: string } | null {
  const arm = /^(.+)\.(then|else)\.\d+$/.exec(path);
  if (arm) {
    const [, host = '', side = ''] = arm;
    return { path: host, group: side, label: side === 'then' ? 'Then' : 'Else' };
  }
  const item = /^(.+)\.items\.(\d+)\.\d+$/.exec(path);
  if (item) {
    const [, host = '', index = ''] = item;
    return { path: host, group: `items.${index}`, label: `Item ${index}` };
  }
  return null;
}

/** The steps, listed in the order they run (a step before those inside it), as a tree by `path`. */
function stepTree(steps: readonly Step[]): StepNode[] {
  const byPath = new Map<string, StepNode>();
  const roots: StepNode[] = [];
  for (const step of steps) {
    const node: StepNode = { step, groups: [] };
    byPath.set(step.path, node);
    const parent = parentOf(step.path);
    const host = parent ? byPath.get(parent.path) : undefined;
    if (!parent || !host) {
      roots.push(node);
      continue;
    }
    let group = host.groups.find((g) => g.key === parent.group);
    if (!group) {
      group = { key: parent.group, label: parent.label, nodes: [] };
      host.groups.push(group);
    }
    group.nodes.push(node);
  }
  return roots;
}

const ACTIVE: readonly Run['status'][] = ['QUEUED', 'RUNNING', 'WAITING'];

export function RunItem({ run }: { run: Run }) {
  const rerun = useMutation(api.runs.rerun.mutationOptions({ onSuccess: reloadWorkflows }));
  const cancel = useMutation(api.runs.cancel.mutationOptions({ onSuccess: reloadWorkflows }));
  const active = ACTIVE.includes(run.status);
  const approval =
    run.status === 'WAITING'
      ? run.steps.find((s) => s.status === 'WAITING' && s.action === 'APPROVAL')
      : undefined;
  return (
    <li className="delivery" data-testid="run">
      <details>
        <summary>
          <span className={`badge ${run.status.toLowerCase()}`}>{run.status}</span>{' '}
          {formatInstant(run.createdAt)} · {run.trigger.toLowerCase().replace('_', ' ')}
          {run.status === 'WAITING' ? (
            <span className="hint">
              {' · '}
              {approval ? 'waits for an approval' : 'waits'}
              {run.resumeAt ? (
                <>
                  {approval ? ', times out ' : ' until '}
                  <time dateTime={run.resumeAt}>{formatInstant(run.resumeAt)}</time>
                </>
              ) : null}
            </span>
          ) : null}
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
        {approval ? <ApprovalAnswer run={run} step={approval} /> : null}
        <h4>Trigger input</h4>
        <pre className="json">{JSON.stringify(run.input, null, 2)}</pre>
        <h4>Steps</h4>
        <StepList nodes={stepTree(run.steps)} />
        <ProblemMessage problem={problemOf(rerun.error ?? cancel.error)} />
        <div className="actions">
          {active ? (
            <button
              type="button"
              className="danger"
              disabled={cancel.isPending}
              onClick={() =>
                window.confirm('Cancel this run? Nothing after the step in flight runs.') &&
                cancel.mutate({ id: run.id })
              }
            >
              Cancel run
            </button>
          ) : null}
          <button
            type="button"
            disabled={active || rerun.isPending}
            onClick={() => rerun.mutate({ id: run.id })}
          >
            Re-run
          </button>
        </div>
      </details>
    </li>
  );
}

/** The APPROVAL step a run waits on: approve or reject it, with a comment kept in its output. */
function ApprovalAnswer({ run, step }: { run: Run; step: Step }) {
  const id = useId();
  const members = useQuery(api.workspace.members.queryOptions({ pageSize: 200 }));
  const assigneeId = (step.output as { assigneeId?: unknown } | null)?.assigneeId;
  const assignee = members.data?.data.find((m) => m.id === assigneeId);
  const [comment, setComment] = useState('');
  const options = { onSuccess: reloadWorkflows };
  const approve = useMutation(api.runs.approve.mutationOptions(options));
  const reject = useMutation(api.runs.reject.mutationOptions(options));
  const answer = { id: run.id, ...(comment.trim() ? { comment: comment.trim() } : {}) };
  const pending = approve.isPending || reject.isPending;
  return (
    <section className="approval" aria-label="Approval">
      <p>
        <strong>Waiting for an approval</strong>
        {assignee ? ` from ${assignee.name}` : ''} · step{' '}
        {step.name ? <code>{step.name}</code> : `at path ${step.path}`}
        {step.resumeAt ? (
          <>
            {' '}
            · times out <time dateTime={step.resumeAt}>{formatInstant(step.resumeAt)}</time>
          </>
        ) : null}
      </p>
      <div className="field">
        <label htmlFor={id}>Comment (optional)</label>
        <textarea id={id} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
      </div>
      <ProblemMessage problem={problemOf(approve.error ?? reject.error)} />
      <div className="actions">
        <button type="button" disabled={pending} onClick={() => approve.mutate(answer)}>
          Approve
        </button>
        <button type="button" className="danger" disabled={pending} onClick={() => reject.mutate(answer)}>
          Reject
        </button>
      </div>
    </section>
  );
}

function StepList({ nodes }: { nodes: StepNode[] }) {
  return (
    <ol className="steps run-steps">
      {nodes.map((node) => (
        <li key={node.step.path} className="step" data-path={node.step.path}>
          <StepLine step={node.step} />
          {node.groups.map((group) => (
            <div
              key={group.key}
              className={`step-group ${group.key.startsWith('items.') ? 'item' : group.key}`}
            >
              <h5>{group.label}</h5>
              <StepList nodes={group.nodes} />
            </div>
          ))}
        </li>
      ))}
    </ol>
  );
}

function StepLine({ step }: { step: Step }) {
  const ran = step.input !== null || step.output !== null || step.error !== null;
  return (
    <>
      <strong>
        {step.index + 1}. {step.action}
      </strong>
      {step.name ? <code> {step.name}</code> : null}{' '}
      <span className={`badge ${step.status.toLowerCase()}`}>{step.status}</span>{' '}
      <small className="hint">
        path {step.path}
        {step.attempts > 0 ? ` · ${step.attempts} attempt${step.attempts === 1 ? '' : 's'}` : ''}
        {step.nextAttemptAt ? ` · next ${formatInstant(step.nextAttemptAt)}` : ''}
        {step.status === 'WAITING' && step.resumeAt
          ? ` · ${step.action === 'APPROVAL' ? 'times out' : 'until'} ${formatInstant(step.resumeAt)}`
          : ''}
      </small>
      {ran ? (
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
      ) : null}
    </>
  );
}
