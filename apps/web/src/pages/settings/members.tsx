import { type FormEvent, useState } from 'react';
import {
  CopyButton,
  Field,
  formatInstant,
  Loading,
  PageHeader,
  ProblemMessage,
  SelectField,
} from '../../lib/components.tsx';
import { useSession } from '../../lib/session.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useData, useSubmit } from '../../lib/use-data.ts';

export function MembersPage() {
  const session = useSession();
  const members = useData(() => trpc.workspace.members.query({ pageSize: 200 }), []);
  const invitations = useData(() => trpc.invitations.list.query(), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'MEMBER' | 'ADMIN' | 'OWNER'>('MEMBER');
  const [link, setLink] = useState<string | null>(null);
  const invite = useSubmit(() => trpc.invitations.create.mutate({ email, role }));
  const revoke = useSubmit((id: string) => trpc.invitations.revoke.mutate({ id }));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await invite.run();
    if (created) {
      setLink(`${window.location.origin}/accept-invitation#${created.data.token}`);
      setEmail('');
      invitations.reload();
    }
  };
  const roles = [
    { value: 'MEMBER', label: 'Member: records, deals and tasks' },
    { value: 'ADMIN', label: 'Admin: also keys, webhooks and automations' },
    ...(session.user.role === 'OWNER' ? [{ value: 'OWNER', label: 'Owner' }] : []),
  ];
  return (
    <>
      <PageHeader title="Members" />
      <form onSubmit={onSubmit} className="card" aria-label="Invite a member" noValidate>
        <h2>Invite someone</h2>
        <ProblemMessage problem={invite.problem} paths={['email', 'role']} />
        <Field
          label="Email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={invite.problem?.fields.email}
          required
        />
        <SelectField
          label="Role"
          value={role}
          onChange={(e) => setRole(e.target.value as typeof role)}
          options={roles}
          error={invite.problem?.fields.role}
        />
        <button type="submit" disabled={invite.busy}>
          Create invitation link
        </button>
        {link ? (
          <p>
            Send this link to the person you invite (valid 7 days, once):{' '}
            <code className="secret-value">{link}</code> <CopyButton text={link} />
          </p>
        ) : null}
      </form>
      <h2>Members</h2>
      <ProblemMessage problem={members.problem} />
      {members.data ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {members.data.data.map((m) => (
              <tr key={m.id}>
                <td>{m.name}</td>
                <td>{m.email}</td>
                <td>{m.role}</td>
                <td>{formatInstant(m.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <Loading what="members" />
      )}
      <h2>Invitations</h2>
      <ProblemMessage problem={invitations.problem ?? revoke.problem} />
      {invitations.data?.data.length === 0 ? <p>No invitations.</p> : null}
      {invitations.data && invitations.data.data.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invitations.data.data.map((i) => (
              <tr key={i.id}>
                <td>{i.email}</td>
                <td>{i.role}</td>
                <td>{i.status}</td>
                <td>{formatInstant(i.expiresAt)}</td>
                <td>
                  {i.status === 'PENDING' ? (
                    <button
                      type="button"
                      onClick={async () => {
                        if (await revoke.run(i.id)) invitations.reload();
                      }}
                    >
                      Revoke
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
