import { type FormEvent, useState } from 'react';
import { Field, ProblemMessage } from '../lib/components.tsx';
import type { SessionInfo } from '../lib/session.tsx';
import { authCall } from '../lib/trpc.ts';
import { useSubmit } from '../lib/use-data.ts';

export function SignInPage({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useSubmit(() => authCall<SessionInfo>('sign-in', { email, password }));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const session = await submit.run();
    if (session) onSignedIn(session);
  };
  const fields = submit.problem?.fields ?? {};
  return (
    <main className="narrow" id="main">
      <h1>Sign in</h1>
      <form onSubmit={onSubmit} noValidate>
        <ProblemMessage problem={submit.problem} paths={['email', 'password']} />
        <Field
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fields.email}
          required
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fields.password}
          required
        />
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="hint">
        The first owner gets a password from <code>crm bootstrap --password …</code>; others join through an
        invitation link. <a href="/docs">API reference</a>
      </p>
    </main>
  );
}
