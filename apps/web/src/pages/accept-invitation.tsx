import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Field, ProblemMessage } from '../lib/components.tsx';
import { problemOf } from '../lib/query.ts';
import type { SessionInfo } from '../lib/session.tsx';
import { authCall } from '../lib/trpc.ts';

/** `/accept-invitation#<token>`: the token travels in the fragment, which no server log sees. */
export function AcceptInvitationPage({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const token = window.location.hash.slice(1);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const submit = useMutation({
    mutationFn: () => authCall<SessionInfo>('accept-invitation', { token, name, password }),
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
      <h1>Join the workspace</h1>
      {token ? null : (
        <p className="problem">This link has no invitation token: open the full link you were sent.</p>
      )}
      <form onSubmit={onSubmit} noValidate>
        <ProblemMessage problem={problem} paths={['name', 'password']} />
        <Field
          label="Your name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fields.name}
          required
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          hint="New here: choose one of at least 10 characters. Already have an account: enter its password."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fields.password}
          required
        />
        <button type="submit" disabled={submit.isPending || !token}>
          Join
        </button>
      </form>
    </main>
  );
}
