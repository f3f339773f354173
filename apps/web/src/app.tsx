import { useEffect, useState } from 'react';
import { Link, match, navigate, useLocation } from './lib/router.tsx';
import { canManage, SessionContext, type SessionInfo } from './lib/session.tsx';
import { authCall, HttpError, setCsrfToken } from './lib/trpc.ts';
import { AcceptInvitationPage } from './pages/accept-invitation.tsx';
import { ApiReferencePage } from './pages/api-reference.tsx';
import { PipelinePage } from './pages/pipeline.tsx';
import { RecordPage } from './pages/record.tsx';
import { RecordsPage } from './pages/records.tsx';
import { AutomationPage, AutomationsPage } from './pages/settings/automations.tsx';
import { KeysPage } from './pages/settings/keys.tsx';
import { MembersPage } from './pages/settings/members.tsx';
import { WebhookPage, WebhooksPage } from './pages/settings/webhooks.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { TasksPage } from './pages/tasks.tsx';

type SessionState =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'signed-in'; session: SessionInfo };

export function App() {
  const { path } = useLocation();
  const [state, setState] = useState<SessionState>({ kind: 'loading' });

  useEffect(() => {
    authCall<SessionInfo>('session').then(
      (session) => {
        setCsrfToken(session.csrfToken);
        setState({ kind: 'signed-in', session });
      },
      (error: unknown) => {
        if (!(error instanceof HttpError && error.status === 401)) console.error(error);
        setState({ kind: 'signed-out' });
      },
    );
  }, []);

  const signedIn = (session: SessionInfo) => {
    setCsrfToken(session.csrfToken);
    setState({ kind: 'signed-in', session });
    navigate('/', { replace: true });
  };

  // The API reference needs no sign-in (contract §5).
  if (path === '/docs') return <ApiReferencePage />;
  if (state.kind === 'loading') return <p className="hint">Loading…</p>;
  if (path === '/accept-invitation') return <AcceptInvitationPage onSignedIn={signedIn} />;
  if (state.kind === 'signed-out') return <SignInPage onSignedIn={signedIn} />;

  const { session } = state;
  const signOut = async () => {
    await authCall('sign-out', {}).catch(() => undefined);
    setCsrfToken('');
    setState({ kind: 'signed-out' });
    navigate('/', { replace: true });
  };

  return (
    <SessionContext.Provider value={session}>
      <div className="shell">
        <a className="skip" href="#main">
          Skip to content
        </a>
        <nav className="sidebar" aria-label="Main">
          <p className="brand">{session.workspace.name}</p>
          <ul>
            <NavItem to="/" label="Records" current={path === '/' || path.startsWith('/records')} />
            <NavItem to="/pipeline" label="Pipeline" current={path === '/pipeline'} />
            <NavItem to="/tasks" label="Tasks" current={path === '/tasks'} />
          </ul>
          {canManage(session) ? (
            <>
              <p className="nav-heading">Settings</p>
              <ul>
                <NavItem to="/settings/keys" label="API keys" current={path === '/settings/keys'} />
                <NavItem
                  to="/settings/webhooks"
                  label="Webhooks"
                  current={path.startsWith('/settings/webhooks')}
                />
                <NavItem
                  to="/settings/automations"
                  label="Automations"
                  current={path.startsWith('/settings/automations')}
                />
                <NavItem to="/settings/members" label="Members" current={path === '/settings/members'} />
              </ul>
            </>
          ) : null}
          <ul>
            <li>
              <a href="/docs">API reference</a>
            </li>
          </ul>
          <div className="who">
            <p>
              {session.user.name}
              <br />
              <small>
                {session.user.email} · {session.user.role}
              </small>
            </p>
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        </nav>
        <main id="main">
          <Page path={path} session={session} />
        </main>
      </div>
    </SessionContext.Provider>
  );
}

function NavItem({ to, label, current }: { to: string; label: string; current: boolean }) {
  return (
    <li>
      <Link to={to} aria-current={current ? 'page' : undefined}>
        {label}
      </Link>
    </li>
  );
}

function Page({ path, session }: { path: string; session: SessionInfo }) {
  if (path === '/') return <RecordsPage />;
  let params = match('/records/:id', path);
  if (params) return <RecordPage id={params.id!} />;
  if (path === '/pipeline') return <PipelinePage />;
  if (path === '/tasks') return <TasksPage />;
  if (path.startsWith('/settings/') && !canManage(session)) {
    return <p role="alert">Only an owner or admin can open the settings.</p>;
  }
  if (path === '/settings/keys') return <KeysPage />;
  if (path === '/settings/webhooks') return <WebhooksPage />;
  params = match('/settings/webhooks/:id', path);
  if (params) return <WebhookPage id={params.id!} />;
  if (path === '/settings/automations') return <AutomationsPage />;
  params = match('/settings/automations/:id', path);
  if (params) return <AutomationPage id={params.id!} />;
  if (path === '/settings/members') return <MembersPage />;
  return (
    <p role="alert">
      Nothing here. <Link to="/">Back to the records</Link>
    </p>
  );
}
