import { eventTypes } from '@crm/constants';
import { type FormEvent, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import {
  Field,
  formatInstant,
  Loading,
  PageHeader,
  Pager,
  ProblemMessage,
  SecretOnce,
  usePager,
} from '../../lib/components.tsx';
import { Link, navigate } from '../../lib/router.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useData, useSubmit } from '../../lib/use-data.ts';

export function WebhooksPage() {
  const pager = usePager();
  const list = useData(
    () => trpc.webhooks.list.query({ pageSize: 50, cursor: pager.cursor }),
    [pager.cursor],
  );
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
        <CreateWebhookForm
          onCreated={(id, value) => {
            setSecret({ id, secret: value });
            list.reload();
          }}
        />
      )}
      <h2>Subscriptions</h2>
      <ProblemMessage problem={list.problem} />
      {list.data ? (
        list.data.data.length === 0 ? (
          <p>No webhooks yet.</p>
        ) : (
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
              {list.data.data.map((w) => (
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
        )
      ) : (
        <Loading what="webhooks" />
      )}
      {list.data ? <Pager pager={pager} nextCursor={list.data.meta.nextCursor} /> : null}
    </>
  );
}

function EventPicker({
  selected,
  onChange,
  error,
}: {
  selected: string[];
  onChange: (events: string[]) => void;
  error?: string | undefined;
}) {
  const toggle = (kind: string, on: boolean) =>
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

function CreateWebhookForm({ onCreated }: { onCreated: (id: string, secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['record.created']);
  const submit = useSubmit(() =>
    trpc.webhooks.create.mutate({ url, events: events as never, ...(description ? { description } : {}) }),
  );
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await submit.run();
    if (created) {
      setUrl('');
      setDescription('');
      onCreated(created.data.id, created.data.secret);
    }
  };
  const fields = submit.problem?.fields ?? {};
  const eventError = Object.entries(fields).find(([path]) => path.startsWith('events'))?.[1];
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Register a webhook" noValidate>
      <h2>Register a webhook</h2>
      <ProblemMessage
        problem={submit.problem}
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
      <button type="submit" disabled={submit.busy}>
        Register webhook
      </button>
    </form>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const webhook = useData(() => trpc.webhooks.get.query({ id }), [id]);
  const pager = usePager();
  const deliveries = useData(
    () => trpc.webhooks.deliveries.query({ id, pageSize: 20, cursor: pager.cursor }),
    [id, pager.cursor],
  );
  const [secret, setSecret] = useState<string | null>(null);
  const action = useSubmit(async (what: 'rotate' | 'test' | 'enable' | 'disable' | 'delete') => {
    if (what === 'rotate') {
      const rotated = await trpc.webhooks.rotateSecret.mutate({ id });
      setSecret(rotated.data.secret);
      announce(
        'The old secret keeps signing for 24 hours (in X-Service-Signature-Previous and webhook-signature), so receivers can switch over.',
      );
    } else if (what === 'test') {
      await trpc.webhooks.test.mutate({ id });
      announce('Test event queued: it appears under Deliveries.');
    } else if (what === 'delete') {
      await trpc.webhooks.delete.mutate({ id });
      navigate('/settings/webhooks');
      return;
    } else {
      await trpc.webhooks.update.mutate({ id, enabled: what === 'enable' });
      announce(what === 'enable' ? 'Enabled.' : 'Disabled.');
    }
    webhook.reload();
    deliveries.reload();
  });
  const w = webhook.data?.data;
  return (
    <>
      <p>
        <Link to="/settings/webhooks">← Webhooks</Link>
      </p>
      <PageHeader title="Webhook" />
      <ProblemMessage problem={webhook.problem ?? action.problem} />
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
            <button type="button" onClick={() => action.run('test')} disabled={action.busy}>
              Send test event
            </button>
            <button type="button" onClick={() => action.run('rotate')} disabled={action.busy}>
              Rotate secret
            </button>
            {w.enabled ? (
              <button type="button" onClick={() => action.run('disable')} disabled={action.busy}>
                Disable
              </button>
            ) : (
              <button type="button" onClick={() => action.run('enable')} disabled={action.busy}>
                Enable again
              </button>
            )}
            <button
              type="button"
              className="danger"
              onClick={() => window.confirm('Delete this webhook?') && action.run('delete')}
              disabled={action.busy}
            >
              Delete
            </button>
          </div>
        </>
      )}
      <h2>
        Deliveries{' '}
        <button type="button" onClick={deliveries.reload}>
          Refresh
        </button>
      </h2>
      <ProblemMessage problem={deliveries.problem} />
      {deliveries.data ? (
        deliveries.data.data.length === 0 ? (
          <p>No deliveries yet.</p>
        ) : (
          <ul className="deliveries">
            {deliveries.data.data.map((d) => (
              <DeliveryItem key={d.id} delivery={d} onRedelivered={deliveries.reload} />
            ))}
          </ul>
        )
      ) : (
        <Loading what="deliveries" />
      )}
      {deliveries.data ? <Pager pager={pager} nextCursor={deliveries.data.meta.nextCursor} /> : null}
    </>
  );
}

interface Delivery {
  id: string;
  event: string | null;
  eventId: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attemptCount: number;
  nextAttemptAt: string | null;
  redeliveryOf: string | null;
  createdAt: string;
  attempts: {
    attempt: number;
    startedAt: string;
    durationMs: number;
    responseStatus: number | null;
    error: string | null;
    responseExcerpt: string | null;
  }[];
}

function DeliveryItem({ delivery, onRedelivered }: { delivery: Delivery; onRedelivered: () => void }) {
  const redeliver = useSubmit(() => trpc.webhooks.redeliver.mutate({ id: delivery.id }));
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
        <ProblemMessage problem={redeliver.problem} />
        <button
          type="button"
          disabled={redeliver.busy}
          onClick={async () => {
            if (await redeliver.run()) onRedelivered();
          }}
        >
          Redeliver
        </button>
      </details>
    </li>
  );
}
