import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Field, ProblemMessage } from '../lib/components.tsx';
import { problemOf } from '../lib/query.ts';
import type { SessionInfo } from '../lib/session.tsx';
import { authCall } from '../lib/trpc.ts';

export function SignInPage({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useMutation({
    mutationFn: () => authCall<SessionInfo>('sign-in', { email, password }),
    onSuccess: onSignedIn,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };
  const problem = problemOf(submit.error);
  const fields = problem?.fields ?? {};
  return (
    <main className="narrow" id="main">
      <h1>Sign in</h1>
      <form onSubmit={onSubmit} noValidate>
        <ProblemMessage problem={problem} paths={['email', 'password']} />
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
        <button type="submit" disabled={submit.isPending}>
          {submit.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="hint">
        The first owner gets a password from <code>crm bootstrap --password …</code>; others join through an
        invitation link. <a href="/docs">API reference</a>
      </p>
    </main>
  );
}
