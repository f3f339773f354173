import { taskPriorities, taskTypes } from '@crm/constants';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  Field,
  formatInstant,
  ListView,
  PageHeader,
  ProblemMessage,
  SelectField,
  usePager,
} from '../lib/components.tsx';
import { api, type Inputs, problemOf, queryClient } from '../lib/query.ts';
import { Link } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';

type Tab = 'mine' | 'open' | 'done';

export function TasksPage() {
  const session = useSession();
  const [tab, setTab] = useState<Tab>('mine');
  const filter =
    tab === 'mine'
      ? { assigneeId: session.user.id, status: 'OPEN' as const }
      : { status: tab === 'open' ? ('OPEN' as const) : ('DONE' as const) };
  return (
    <>
      <PageHeader title="Tasks" />
      <div role="tablist" aria-label="Which tasks" className="tabs">
        {(
          [
            ['mine', 'Mine'],
            ['open', 'Open'],
            ['done', 'Done'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={tab === value}
            onClick={() => setTab(value)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        <TaskList key={tab} filter={filter} assignToMe={tab === 'mine'} />
      </div>
    </>
  );
}

type TaskFilter = Pick<Inputs['tasks']['list'], 'recordId' | 'status' | 'assigneeId'>;

/**
 * Tasks by due date (soonest first), each ticked done or reopened in place, and a form to add
 * one. On a record's page (`recordId`) the tasks linked to the record (`records.tasks`): those
 * made for it and those it was linked to afterwards, each with the label of its link.
 */
export function TaskList({
  filter,
  recordId,
  assignToMe = false,
}: {
  filter: TaskFilter;
  recordId?: string;
  assignToMe?: boolean;
}) {
  const session = useSession();
  const pager = usePager(JSON.stringify([filter, recordId]));
  const page = { sort: 'dueAt' as const, pageSize: 50, cursor: pager.cursor };
  const listed = useQuery({
    ...api.tasks.list.queryOptions({ ...filter, ...page }),
    placeholderData: keepPreviousData,
    enabled: !recordId,
  });
  const linked = useQuery({
    ...api.records.tasks.queryOptions({ id: recordId ?? '', ...page }),
    placeholderData: keepPreviousData,
    enabled: Boolean(recordId),
  });
  const tasks = recordId ? linked : listed;
  // The label of each task's link to the record ("Audience"): `records.tasks` gives it.
  const labels = new Map(recordId ? (linked.data?.data ?? []).map((t) => [t.id, t.link.label]) : []);
  // A ticked box shows its new state at once; it flips back if the change is refused.
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const toggle = useMutation(
    api.tasks.update.mutationOptions({
      onMutate: ({ id, status }) => setTicked((t) => ({ ...t, [id]: status === 'DONE' })),
      onSettled: async (_data, _error, { id }) => {
        await invalidateTasks(recordId);
        setTicked(({ [id]: _, ...rest }) => rest);
      },
    }),
  );
  return (
    <>
      <ProblemMessage problem={problemOf(toggle.error)} />
      <ListView query={tasks} what="tasks" empty="No tasks here." pager={pager}>
        {(rows) => (
          <ul className="tasks">
            {rows.map((t) => (
              <li key={t.id} className={t.status === 'DONE' ? 'done' : ''}>
                <label>
                  <input
                    type="checkbox"
                    checked={ticked[t.id] ?? t.status === 'DONE'}
                    onChange={(e) => toggle.mutate({ id: t.id, status: e.target.checked ? 'DONE' : 'OPEN' })}
                  />{' '}
                  {t.title}
                </label>{' '}
                <small>
                  {t.type.toLowerCase()} · {t.priority.toLowerCase()} priority
                  {t.dueAt ? ` · due ${formatInstant(t.dueAt)}` : ''}
                  {t.assigneeId === session.user.id ? ' · mine' : ''}
                  {labels.get(t.id) ? ` · ${labels.get(t.id)}` : ''}
                  {t.recordId && !recordId ? (
                    <>
                      {' · '}
                      <Link to={`/records/${t.recordId}`}>record</Link>
                    </>
                  ) : null}
                </small>
              </li>
            ))}
          </ul>
        )}
      </ListView>
      {filter.status === 'DONE' ? null : <AddTaskForm recordId={recordId} assignToMe={assignToMe} />}
    </>
  );
}

/**
 * Reads every task list again after a change; on a record's page its timeline too (a task
 * shows in the record's history).
 */
function invalidateTasks(recordId: string | undefined) {
  return Promise.all([
    queryClient.invalidateQueries(api.tasks.pathFilter()),
    queryClient.invalidateQueries(api.records.tasks.pathFilter()),
    recordId ? queryClient.invalidateQueries(api.records.timeline.pathFilter()) : undefined,
  ]);
}

function AddTaskForm({ recordId, assignToMe }: { recordId: string | undefined; assignToMe: boolean }) {
  const session = useSession();
  const [title, setTitle] = useState('');
  const [due, setDue] = useState('');
  const [priority, setPriority] = useState<(typeof taskPriorities)[number]>('MEDIUM');
  const [type, setType] = useState<(typeof taskTypes)[number]>('TODO');
  const [mine, setMine] = useState(assignToMe || Boolean(recordId));
  const submit = useMutation(
    api.tasks.create.mutationOptions({
      onSuccess: async () => {
        setTitle('');
        setDue('');
        await invalidateTasks(recordId);
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({
      title,
      priority,
      type,
      ...(due ? { dueAt: new Date(due).toISOString() } : {}),
      ...(recordId ? { recordId } : {}),
      ...(mine ? { assigneeId: session.user.id } : {}),
    });
  };
  const problem = problemOf(submit.error);
  const errors = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Add a task" noValidate>
      <h3>Add a task</h3>
      <ProblemMessage problem={problem} paths={['title', 'dueAt', 'priority', 'type']} />
      <div className="row">
        <Field
          label="Task"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={errors.title}
          required
        />
        <Field
          label="Due"
          type="datetime-local"
          value={due}
          onChange={(e) => setDue(e.target.value)}
          error={errors.dueAt}
        />
        <SelectField
          label="Priority"
          value={priority}
          onChange={(e) => setPriority(e.target.value as typeof priority)}
          options={taskPriorities.map((p) => ({ value: p, label: p.toLowerCase() }))}
        />
        <SelectField
          label="Type"
          value={type}
          onChange={(e) => setType(e.target.value as typeof type)}
          options={taskTypes.map((t) => ({ value: t, label: t.toLowerCase() }))}
        />
      </div>
      <label>
        <input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} /> Assign to me
      </label>{' '}
      <button type="submit" disabled={submit.isPending}>
        Add task
      </button>
    </form>
  );
}
