import { type EventType, eventTypes } from '@crm/constants';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import {
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

/** Reads the webhooks, one webhook and its deliveries again after a change. */
const reloadWebhooks = () => queryClient.invalidateQueries(api.webhooks.pathFilter());

export function WebhooksPage() {
  const pager = usePager();
  const list = useQuery({
    ...api.webhooks.list.queryOptions({ pageSize: 50, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  return (
    <>
      <PageHeader title="Webhooks" />
      <p>
        The service POSTs each event you pick to your URL, signed with the subscription's secret in{' '}
        <code>X-Service-Signature</code>.
      </p>
      {secret ? (
        <SecretOnce
          title="Signing secret of the new webhook"
          secret={secret.secret}
          onDone={() => navigate(`/settings/webhooks/${secret.id}`)}
        />
      ) : (
        <CreateWebhookForm onCreated={(id, value) => setSecret({ id, secret: value })} />
      )}
      <h2>Subscriptions</h2>
      <ListView query={list} what="webhooks" empty="No webhooks yet." pager={pager}>
        {(rows) => (
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Last success</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to={`/settings/webhooks/${w.id}`}>{w.url}</Link>
                    {w.description ? <div className="hint">{w.description}</div> : null}
                  </td>
                  <td>{w.events.join(', ')}</td>
                  <td>{w.enabled ? 'enabled' : <span className="badge warn">disabled</span>}</td>
                  <td>{formatInstant(w.lastSuccessAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

function EventPicker({
  selected,
  onChange,
  error,
}: {
  selected: Subscribed[];
  onChange: (events: Subscribed[]) => void;
  error?: string | undefined;
}) {
  const toggle = (kind: Subscribed, on: boolean) =>
    onChange(on ? [...selected.filter((k) => k !== kind), kind] : selected.filter((k) => k !== kind));
  return (
    <fieldset aria-describedby={error ? 'events-error' : undefined}>
      <legend>Events</legend>
      <label>
        <input
          type="checkbox"
          checked={selected.includes('*')}
          onChange={(e) => toggle('*', e.target.checked)}
        />{' '}
        All events (<code>*</code>)
      </label>
      <div className="checks">
        {eventTypes.map((kind) => (
          <label key={kind}>
            <input
              type="checkbox"
              checked={selected.includes(kind)}
              disabled={selected.includes('*')}
              onChange={(e) => toggle(kind, e.target.checked)}
            />{' '}
            {kind}
          </label>
        ))}
      </div>
      {error ? (
        <small id="events-error" className="field-error">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}

/** An event kind, or `*` for all of them. */
type Subscribed = EventType | '*';

function CreateWebhookForm({ onCreated }: { onCreated: (id: string, secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<Subscribed[]>(['record.created']);
  const submit = useMutation(
    api.webhooks.create.mutationOptions({
      onSuccess: (created) => {
        setUrl('');
        setDescription('');
        onCreated(created.data.id, created.data.secret);
        return reloadWebhooks();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({ url, events, ...(description ? { description } : {}) });
  };
  const problem = problemOf(submit.error);
  const fields = problem?.fields ?? {};
  const eventError = Object.entries(fields).find(([path]) => path.startsWith('events'))?.[1];
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Register a webhook" noValidate>
      <h2>Register a webhook</h2>
      <ProblemMessage
        problem={problem}
        paths={['url', 'description', ...Object.keys(fields).filter((p) => p.startsWith('events'))]}
      />
      <Field
        label="URL"
        type="url"
        placeholder="https://example.com/hooks/crm"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={fields.url}
        required
      />
      <Field
        label="Description (optional)"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={fields.description}
      />
      <EventPicker selected={events} onChange={setEvents} error={eventError} />
      <button type="submit" disabled={submit.isPending}>
        Register webhook
      </button>
    </form>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const webhook = useQuery(api.webhooks.get.queryOptions({ id }));
  const pager = usePager(id);
  const deliveries = useQuery({
    ...api.webhooks.deliveries.queryOptions({ id, pageSize: 20, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
  const [secret, setSecret] = useState<string | null>(null);
  const action = useMutation({
    mutationFn: (what: 'rotate' | 'test' | 'enable' | 'disable' | 'delete') => webhookAction(id, what),
    onSuccess: (rotated, what) => {
      // A deleted webhook's own page is being left: only the list is read again.
      if (what === 'delete') return queryClient.invalidateQueries(api.webhooks.list.pathFilter());
      if (rotated) setSecret(rotated);
      return reloadWebhooks();
    },
  });
  const w = webhook.data?.data;
  return (
    <>
      <p>
        <Link to="/settings/webhooks">← Webhooks</Link>
      </p>
      <PageHeader title="Webhook" />
      <ProblemMessage problem={problemOf(webhook.error ?? action.error)} />
      {!w ? (
        <Loading what="the webhook" />
      ) : (
        <>
          <dl className="facts">
            <dt>URL</dt>
            <dd>
              <code>{w.url}</code>
            </dd>
            <dt>Events</dt>
            <dd>{w.events.join(', ')}</dd>
            <dt>State</dt>
            <dd>{w.enabled ? 'enabled' : 'disabled'}</dd>
            <dt>Last success</dt>
            <dd>{formatInstant(w.lastSuccessAt)}</dd>
          </dl>
          {!w.enabled && w.disabledReason ? (
            <div className="problem" role="status">
              <p>
                <strong>Disabled by the service:</strong> {w.disabledReason}
              </p>
            </div>
          ) : null}
          {secret ? (
            <SecretOnce title="New signing secret" secret={secret} onDone={() => setSecret(null)} />
          ) : null}
          <div className="actions">
            <button type="button" onClick={() => action.mutate('test')} disabled={action.isPending}>
              Send test event
            </button>
            <button type="button" onClick={() => action.mutate('rotate')} disabled={action.isPending}>
              Rotate secret
            </button>
            {w.enabled ? (
              <button type="button" onClick={() => action.mutate('disable')} disabled={action.isPending}>
                Disable
              </button>
            ) : (
              <button type="button" onClick={() => action.mutate('enable')} disabled={action.isPending}>
                Enable again
              </button>
            )}
            <button
              type="button"
              className="danger"
              onClick={() => window.confirm('Delete this webhook?') && action.mutate('delete')}
              disabled={action.isPending}
            >
              Delete
            </button>
          </div>
        </>
      )}
      <h2>
        Deliveries{' '}
        <button type="button" onClick={() => deliveries.refetch()}>
          Refresh
        </button>
      </h2>
      <ListView query={deliveries} what="deliveries" empty="No deliveries yet." pager={pager}>
        {(rows) => (
          <ul className="deliveries">
            {rows.map((d) => (
              <DeliveryItem key={d.id} delivery={d} />
            ))}
          </ul>
        )}
      </ListView>
    </>
  );
}

function DeliveryItem({ delivery }: { delivery: Outputs['webhooks']['deliveries']['data'][number] }) {
  const redeliver = useMutation(api.webhooks.redeliver.mutationOptions({ onSuccess: reloadWebhooks }));
  return (
    <li className="delivery" data-testid="delivery">
      <details>
        <summary>
          <span className={`badge ${delivery.status.toLowerCase()}`}>{delivery.status}</span>{' '}
          <strong>{delivery.event ?? 'event no longer kept'}</strong> · {formatInstant(delivery.createdAt)} ·{' '}
          {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'}
          {delivery.nextAttemptAt ? ` · next attempt ${formatInstant(delivery.nextAttemptAt)}` : ''}
        </summary>
        <p className="hint">
          {delivery.id} · event {delivery.eventId}
          {delivery.redeliveryOf ? ` · sent again from ${delivery.redeliveryOf}` : ''}
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Started</th>
              <th scope="col">Status code</th>
              <th scope="col">Duration</th>
              <th scope="col">Response or error</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attempts.map((a) => (
              <tr key={a.attempt}>
                <td>{a.attempt}</td>
                <td>{formatInstant(a.startedAt)}</td>
                <td>{a.responseStatus ?? '—'}</td>
                <td>{a.durationMs} ms</td>
                <td>
                  {a.error ? <span className="field-error">{a.error}</span> : null}
                  {a.responseExcerpt ? <pre className="excerpt">{a.responseExcerpt}</pre> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {delivery.status === 'CAPTURED' ? (
          <section aria-label="Captured body">
            <p className="hint">
              Captured, not sent: this sandbox sends only to the URLs it allows. The body it would have sent:
            </p>
            <pre className="excerpt">
              {delivery.body === null
                ? 'the event is no longer kept'
                : JSON.stringify(delivery.body, null, 2)}
            </pre>
          </section>
        ) : null}
        <ProblemMessage problem={problemOf(redeliver.error)} />
        <button
          type="button"
          disabled={redeliver.isPending}
          onClick={() => redeliver.mutate({ id: delivery.id })}
        >
          Redeliver
        </button>
      </details>
    </li>
  );
}

/** One of the webhook page's buttons; a rotation answers the new secret, shown once. */
async function webhookAction(
  id: string,
  what: 'rotate' | 'test' | 'enable' | 'disable' | 'delete',
): Promise<string | null> {
  if (what === 'rotate') {
    const rotated = await trpc.webhooks.rotateSecret.mutate({ id });
    announce(
      'The old secret keeps signing for 24 hours (in X-Service-Signature-Previous and webhook-signature), so receivers can switch over.',
    );
    return rotated.data.secret;
  }
  if (what === 'test') {
    await trpc.webhooks.test.mutate({ id });
    announce('Test event queued: it appears under Deliveries.');
  } else if (what === 'delete') {
    await trpc.webhooks.delete.mutate({ id });
    navigate('/settings/webhooks');
  } else {
    await trpc.webhooks.update.mutate({ id, enabled: what === 'enable' });
    announce(what === 'enable' ? 'Enabled.' : 'Disabled.');
  }
  return null;
}
