import { type FormEvent, useEffect, useState } from 'react';
import { ProblemMessage } from '../../lib/components.tsx';
import { jsonCall, type Problem, toProblem } from '../../lib/trpc.ts';

interface ConsentDetails {
  uid: string;
  client: { id: string; name: string; redirectHost: string | null };
  user: { id: string; name: string; role: string };
  scopes: { scope: string; allowed: boolean }[];
  offlineAccess: boolean;
  /** The resources it asks access to: `<base>/api/v1` (the REST API) or `<base>/mcp`. */
  resources: string[];
}

/** Where an app would act, in words: the REST API, the MCP server, or both. */
function surfaces(resources: string[]): string {
  const words = resources.map((r) => (r.endsWith('/api/v1') ? 'the REST API' : 'the MCP server'));
  return [...new Set(words)].join(' and ') || 'the MCP server';
}

/** A call of the consent API (docs/mcp.md, "OAuth"), under the interaction's own path. */
function consentCall<T>(uid: string, step: 'details' | 'confirm' | 'deny', body?: unknown): Promise<T> {
  return jsonCall<T>(
    `/oauth/consent/${encodeURIComponent(uid)}/${step}`,
    step === 'details' ? 'GET' : 'POST',
    body,
  );
}

/** What each resource's scopes let an app do, in words. */
const ACTIONS: Record<string, string> = { read: 'read', write: 'create and change', delete: 'delete' };

/**
 * The consent page of the OAuth flow (`/oauth/consent/<uid>`): which app asks, for whom, and
 * the scopes it asks for, each with a checkbox (those the user's role lacks are shown and
 * cannot be given). Allow grants the ones left checked; either button sends the browser back
 * to the app.
 */
export function ConsentPage({ uid, workspace }: { uid: string; workspace: string }) {
  const [details, setDetails] = useState<ConsentDetails | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    consentCall<ConsentDetails>(uid, 'details').then(
      (found) => {
        setDetails(found);
        setChosen(new Set(found.scopes.filter((s) => s.allowed).map((s) => s.scope)));
      },
      (error: unknown) => setProblem(toProblem(error)),
    );
  }, [uid]);

  const finish = (step: 'confirm' | 'deny') => {
    setBusy(true);
    setProblem(null);
    consentCall<{ redirectTo: string }>(uid, step, step === 'confirm' ? { scopes: [...chosen] } : {}).then(
      ({ redirectTo }) => window.location.assign(redirectTo),
      (error: unknown) => {
        setProblem(toProblem(error));
        setBusy(false);
      },
    );
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    finish('confirm');
  };

  if (!details) {
    return (
      <main className="narrow" id="main">
        <h1>Connect an app</h1>
        {problem ? <ProblemMessage problem={problem} /> : <p className="hint">Loading…</p>}
      </main>
    );
  }
  const app = details.client.name;
  return (
    <main className="narrow" id="main">
      <h1>
        Allow {app} to use {workspace}?
      </h1>
      <p>
        <strong>{app}</strong>
        {details.client.redirectHost ? <> (it returns to {details.client.redirectHost})</> : null} asks to act
        as you, {details.user.name}, in {workspace} through {surfaces(details.resources)}. What it does is
        recorded as yours, made through {app}.
      </p>
      <form onSubmit={onSubmit}>
        <ProblemMessage problem={problem} paths={['scopes']} />
        <fieldset>
          <legend>It asks to</legend>
          {details.scopes.length === 0 ? <p>It asks for no access to the workspace.</p> : null}
          <ul className="consent-scopes">
            {details.scopes.map(({ scope, allowed }) => {
              const [resource, action] = scope.split(':');
              return (
                <li key={scope}>
                  <label>
                    <input
                      type="checkbox"
                      checked={chosen.has(scope)}
                      disabled={!allowed || busy}
                      onChange={(e) => {
                        const next = new Set(chosen);
                        if (e.target.checked) next.add(scope);
                        else next.delete(scope);
                        setChosen(next);
                      }}
                    />{' '}
                    {ACTIONS[action ?? ''] ?? action} {resource} <code className="nowrap">{scope}</code>
                    {allowed ? null : <small className="hint"> (your role does not allow it)</small>}
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <p className="hint">It keeps this access until you revoke it in Settings → Connected apps.</p>
        <div className="actions">
          <button type="submit" disabled={busy || chosen.size === 0}>
            Allow
          </button>{' '}
          <button type="button" className="secondary" disabled={busy} onClick={() => finish('deny')}>
            Deny
          </button>
        </div>
      </form>
    </main>
  );
}
