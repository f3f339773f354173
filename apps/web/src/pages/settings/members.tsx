import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  CopyButton,
  Field,
  formatInstant,
  ListView,
  PageHeader,
  ProblemMessage,
  SelectField,
} from '../../lib/components.tsx';
import { api, problemOf, queryClient } from '../../lib/query.ts';
import { useSession } from '../../lib/session.tsx';

const reloadInvitations = () => queryClient.invalidateQueries(api.invitations.list.pathFilter());
const reloadMembers = () => queryClient.invalidateQueries(api.workspace.members.pathFilter());

export function MembersPage() {
  const session = useSession();
  const members = useQuery(api.workspace.members.queryOptions({ pageSize: 200 }));
  const invitations = useQuery(api.invitations.list.queryOptions());
  // A role change or a removal takes effect at once, keys included (docs/api.md, "Scopes").
  const changeRole = useMutation(api.workspace.changeRole.mutationOptions({ onSettled: reloadMembers }));
  const remove = useMutation(api.workspace.removeMember.mutationOptions({ onSuccess: reloadMembers }));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'MEMBER' | 'ADMIN' | 'OWNER'>('MEMBER');
  const [link, setLink] = useState<string | null>(null);
  const invite = useMutation(
    api.invitations.create.mutationOptions({
      onSuccess: (created) => {
        setLink(`${window.location.origin}/accept-invitation#${created.data.token}`);
        setEmail('');
        return reloadInvitations();
      },
    }),
  );
  const revoke = useMutation(api.invitations.revoke.mutationOptions({ onSuccess: reloadInvitations }));
  const inviteProblem = problemOf(invite.error);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, role });
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
        <ProblemMessage problem={inviteProblem} paths={['email', 'role']} />
        <Field
          label="Email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={inviteProblem?.fields.email}
          required
        />
        <SelectField
          label="Role"
          value={role}
          onChange={(e) => setRole(e.target.value as typeof role)}
          options={roles}
          error={inviteProblem?.fields.role}
        />
        <button type="submit" disabled={invite.isPending}>
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
      <ProblemMessage problem={problemOf(changeRole.error ?? remove.error)} />
      <ListView query={members} what="members" empty="No members.">
        {(rows) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>
                    {m.id === session.user.id ? (
                      m.role
                    ) : (
                      <select
                        aria-label={`Role of ${m.name}`}
                        value={m.role}
                        disabled={changeRole.isPending}
                        onChange={(e) =>
                          changeRole.mutate({ userId: m.id, role: e.target.value as typeof m.role })
                        }
                      >
                        {roles.map((r) => (
                          <option key={r.value} value={r.value}>
                            {r.label}
                          </option>
                        ))}
                        {m.role === 'OWNER' && session.user.role !== 'OWNER' ? (
                          <option value="OWNER">Owner</option>
                        ) : null}
                      </select>
                    )}
                  </td>
                  <td>{formatInstant(m.createdAt)}</td>
                  <td>
                    {m.id === session.user.id ? null : (
                      <button
                        type="button"
                        className="danger"
                        aria-label={`Remove ${m.name}`}
                        onClick={() => {
                          if (
                            window.confirm(
                              `Remove ${m.name}? Their sessions end and their keys stop working.`,
                            )
                          )
                            remove.mutate({ userId: m.id });
                        }}
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListView>
      <h2>Invitations</h2>
      <ProblemMessage problem={problemOf(revoke.error)} />
      <ListView query={invitations} what="invitations" empty="No invitations.">
        {(rows) => (
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
              {rows.map((i) => (
                <tr key={i.id}>
                  <td>{i.email}</td>
                  <td>{i.role}</td>
                  <td>{i.status}</td>
                  <td>{formatInstant(i.expiresAt)}</td>
                  <td>
                    {i.status === 'PENDING' ? (
                      <button type="button" onClick={() => revoke.mutate({ id: i.id })}>
                        Revoke
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}
