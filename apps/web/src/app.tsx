import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { announce } from './lib/announcer.tsx';
import { queryClient } from './lib/query.ts';
import { Link, match, navigate, useLocation } from './lib/router.tsx';
import { canManage, openWorkspace, SessionContext, type SessionInfo } from './lib/session.tsx';
import { authCall, HttpError, setCsrfToken } from './lib/trpc.ts';

/** Each page is its own chunk, loaded the first time it is opened. */
const AcceptInvitationPage = lazy(() =>
  import('./pages/accept-invitation.tsx').then((m) => ({ default: m.AcceptInvitationPage })),
);
const PipelinePage = lazy(() => import('./pages/pipeline.tsx').then((m) => ({ default: m.PipelinePage })));
const RecordPage = lazy(() => import('./pages/record.tsx').then((m) => ({ default: m.RecordPage })));
const RecordsPage = lazy(() => import('./pages/records.tsx').then((m) => ({ default: m.RecordsPage })));
const ReportsPage = lazy(() => import('./pages/reports.tsx').then((m) => ({ default: m.ReportsPage })));
const AutomationPage = lazy(() =>
  import('./pages/settings/automations.tsx').then((m) => ({ default: m.AutomationPage })),
);
const AutomationsPage = lazy(() =>
  import('./pages/settings/automations.tsx').then((m) => ({ default: m.AutomationsPage })),
);
const FoldersPage = lazy(() =>
  import('./pages/settings/folders.tsx').then((m) => ({ default: m.FoldersPage })),
);
const AuditLogPage = lazy(() =>
  import('./pages/settings/audit-log.tsx').then((m) => ({ default: m.AuditLogPage })),
);
const AppsPage = lazy(() => import('./pages/settings/apps.tsx').then((m) => ({ default: m.AppsPage })));
const SandboxesPage = lazy(() =>
  import('./pages/settings/sandboxes.tsx').then((m) => ({ default: m.SandboxesPage })),
);
const ConnectedAppsPage = lazy(() =>
  import('./pages/settings/connected-apps.tsx').then((m) => ({ default: m.ConnectedAppsPage })),
);
const ConsentPage = lazy(() => import('./pages/oauth/consent.tsx').then((m) => ({ default: m.ConsentPage })));
const JobsPage = lazy(() => import('./pages/settings/jobs.tsx').then((m) => ({ default: m.JobsPage })));
const KeysPage = lazy(() => import('./pages/settings/keys.tsx').then((m) => ({ default: m.KeysPage })));
const MembersPage = lazy(() =>
  import('./pages/settings/members.tsx').then((m) => ({ default: m.MembersPage })),
);
const WebhookPage = lazy(() =>
  import('./pages/settings/webhooks.tsx').then((m) => ({ default: m.WebhookPage })),
);
const WebhooksPage = lazy(() =>
  import('./pages/settings/webhooks.tsx').then((m) => ({ default: m.WebhooksPage })),
);
const SignInPage = lazy(() => import('./pages/sign-in.tsx').then((m) => ({ default: m.SignInPage })));
const TasksPage = lazy(() => import('./pages/tasks.tsx').then((m) => ({ default: m.TasksPage })));

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
    // Signing in on an app's consent page comes back to it.
    if (!window.location.pathname.startsWith('/oauth/consent/')) navigate('/', { replace: true });
    // Also replaces a failed attempt's message still on the status line.
    announce(`Signed in to ${session.workspace.name}.`);
  };

  if (state.kind === 'loading') return <p className="hint">Loading…</p>;
  if (path === '/accept-invitation') return <Loaded>{<AcceptInvitationPage onSignedIn={signedIn} />}</Loaded>;
  if (state.kind === 'signed-out') return <Loaded>{<SignInPage onSignedIn={signedIn} />}</Loaded>;

  const { session } = state;
  // An app's OAuth consent page: on its own, without the navigation (docs/mcp.md, "OAuth").
  const consent = match('/oauth/consent/:uid', path);
  if (consent) {
    return <Loaded>{<ConsentPage uid={consent.uid as string} workspace={session.workspace.name} />}</Loaded>;
  }
  const signOut = async () => {
    await authCall('sign-out', {}).catch(() => undefined);
    setCsrfToken('');
    // Nothing read for this session may show to the next one.
    queryClient.clear();
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
            <NavItem to="/reports" label="Reports" current={path === '/reports'} />
          </ul>
          <p className="nav-heading">Settings</p>
          <ul>
            <NavItem
              to="/settings/folders"
              label="Folders and fields"
              current={path === '/settings/folders'}
            />
            <NavItem
              to="/settings/connected-apps"
              label="Connected apps"
              current={path === '/settings/connected-apps'}
            />
            <NavItem to="/settings/jobs" label="Jobs" current={path === '/settings/jobs'} />
            {session.workspace.sandboxOf === null ? (
              <NavItem to="/settings/sandboxes" label="Sandboxes" current={path === '/settings/sandboxes'} />
            ) : null}
            {canManage(session) ? (
              <>
                <NavItem to="/settings/keys" label="API keys" current={path === '/settings/keys'} />
                <NavItem to="/settings/apps" label="Apps" current={path === '/settings/apps'} />
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
                <NavItem
                  to="/settings/audit-log"
                  label="Audit log"
                  current={path === '/settings/audit-log'}
                />
              </>
            ) : null}
          </ul>
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
          {session.workspace.sandboxOf ? <SandboxBanner sandboxOf={session.workspace.sandboxOf} /> : null}
          <Loaded>
            <Page path={path} session={session} />
          </Loaded>
        </main>
      </div>
    </SessionContext.Provider>
  );
}

/** Says that this is a sandbox, and leads back to the workspace it was made from. */
function SandboxBanner({ sandboxOf }: { sandboxOf: string }) {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <section className="sandbox-banner" aria-label="Sandbox">
      <p>
        <strong>Sandbox.</strong> Webhooks and HTTP requests go only to the URLs it allows; the others are
        captured, not sent.{' '}
        <button
          type="button"
          onClick={() => openWorkspace(sandboxOf).catch((error: unknown) => setProblem(String(error)))}
        >
          Back to the workspace
        </button>
      </p>
      {problem ? <p className="problem">{problem}</p> : null}
    </section>
  );
}

/** A page while its chunk loads. */
function Loaded({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p className="hint">Loading…</p>}>{children}</Suspense>;
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
  if (params?.id) return <RecordPage id={params.id} />;
  if (path === '/pipeline') return <PipelinePage />;
  if (path === '/tasks') return <TasksPage />;
  if (path === '/reports') return <ReportsPage />;
  // Every member changes folders and fields, as any key with the write scope may.
  if (path === '/settings/folders') return <FoldersPage />;
  if (path === '/settings/connected-apps') return <ConnectedAppsPage />;
  // Every member imports and exports through jobs, and sees the workspace's (docs/web-app.md, "Jobs").
  if (path === '/settings/jobs') return <JobsPage />;
  // Every member opens a sandbox; owners and admins make and delete them (the page says which).
  if (path === '/settings/sandboxes') return <SandboxesPage />;
  if (path.startsWith('/settings/') && !canManage(session)) {
    return <p className="problem">Only an owner or admin can open the settings.</p>;
  }
  if (path === '/settings/keys') return <KeysPage />;
  if (path === '/settings/apps') return <AppsPage />;
  if (path === '/settings/webhooks') return <WebhooksPage />;
  params = match('/settings/webhooks/:id', path);
  if (params?.id) return <WebhookPage id={params.id} />;
  if (path === '/settings/automations') return <AutomationsPage />;
  params = match('/settings/automations/:id', path);
  if (params?.id) return <AutomationPage id={params.id} />;
  if (path === '/settings/members') return <MembersPage />;
  if (path === '/settings/audit-log') return <AuditLogPage />;
  return (
    <p className="problem">
      Nothing here. <Link to="/">Back to the records</Link>
    </p>
  );
}
