import { taskPriorities, taskTypes } from '@crm/constants';
import { type FormEvent, useState } from 'react';
import {
  Field,
  formatInstant,
  Loading,
  PageHeader,
  Pager,
  ProblemMessage,
  SelectField,
  usePager,
} from '../lib/components.tsx';
import { Link } from '../lib/router.tsx';
import { useSession } from '../lib/session.tsx';
import { trpc } from '../lib/trpc.ts';
import { useData, useSubmit } from '../lib/use-data.ts';

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

interface TaskFilter {
  recordId?: string;
  status?: 'OPEN' | 'DONE';
  assigneeId?: string;
}

/** Tasks by due date (soonest first), each ticked done or reopened in place, and a form to add one. */
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
  const pager = usePager();
  const key = JSON.stringify(filter);
  const tasks = useData(
    () => trpc.tasks.list.query({ ...filter, sort: 'dueAt', pageSize: 50, cursor: pager.cursor }),
    [key, pager.cursor],
  );
  // A ticked box shows its new state at once; it flips back if the change is refused.
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const toggle = useSubmit((id: string, done: boolean) =>
    trpc.tasks.update.mutate({ id, status: done ? 'DONE' : 'OPEN' }),
  );
  const onTick = async (id: string, done: boolean) => {
    setTicked((t) => ({ ...t, [id]: done }));
    const updated = await toggle.run(id, done);
    setTicked(({ [id]: _, ...rest }) => rest);
    if (updated) tasks.reload();
  };
  return (
    <>
      <ProblemMessage problem={tasks.problem ?? toggle.problem} />
      {tasks.data ? (
        tasks.data.data.length === 0 ? (
          <p>No tasks here.</p>
        ) : (
          <ul className="tasks">
            {tasks.data.data.map((t) => (
              <li key={t.id} className={t.status === 'DONE' ? 'done' : ''}>
                <label>
                  <input
                    type="checkbox"
                    checked={ticked[t.id] ?? t.status === 'DONE'}
                    onChange={(e) => onTick(t.id, e.target.checked)}
                  />{' '}
                  {t.title}
                </label>{' '}
                <small>
                  {t.type.toLowerCase()} · {t.priority.toLowerCase()} priority
                  {t.dueAt ? ` · due ${formatInstant(t.dueAt)}` : ''}
                  {t.assigneeId === session.user.id ? ' · mine' : ''}
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
        )
      ) : (
        <Loading what="tasks" />
      )}
      {tasks.data ? <Pager pager={pager} nextCursor={tasks.data.meta.nextCursor} /> : null}
      {filter.status === 'DONE' ? null : (
        <AddTaskForm recordId={recordId} assignToMe={assignToMe} onAdded={tasks.reload} />
      )}
    </>
  );
}

function AddTaskForm({
  recordId,
  assignToMe,
  onAdded,
}: {
  recordId: string | undefined;
  assignToMe: boolean;
  onAdded: () => void;
}) {
  const session = useSession();
  const [title, setTitle] = useState('');
  const [due, setDue] = useState('');
  const [priority, setPriority] = useState('MEDIUM');
  const [type, setType] = useState('TODO');
  const [mine, setMine] = useState(assignToMe || Boolean(recordId));
  const submit = useSubmit(() =>
    trpc.tasks.create.mutate({
      title,
      priority: priority as 'MEDIUM',
      type: type as 'TODO',
      ...(due ? { dueAt: new Date(due).toISOString() } : {}),
      ...(recordId ? { recordId } : {}),
      ...(mine ? { assigneeId: session.user.id } : {}),
    }),
  );
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await submit.run()) {
      setTitle('');
      setDue('');
      onAdded();
    }
  };
  const errors = submit.problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Add a task" noValidate>
      <h3>Add a task</h3>
      <ProblemMessage problem={submit.problem} paths={['title', 'dueAt', 'priority', 'type']} />
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
          onChange={(e) => setPriority(e.target.value)}
          options={taskPriorities.map((p) => ({ value: p, label: p.toLowerCase() }))}
        />
        <SelectField
          label="Type"
          value={type}
          onChange={(e) => setType(e.target.value)}
          options={taskTypes.map((t) => ({ value: t, label: t.toLowerCase() }))}
        />
      </div>
      <label>
        <input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} /> Assign to me
      </label>{' '}
      <button type="submit" disabled={submit.busy}>
        Add task
      </button>
    </form>
  );
}
