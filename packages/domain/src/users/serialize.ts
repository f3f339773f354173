import type { schema } from '@crm/db';
import type { InvitationOutput } from './schemas.ts';

export type InvitationRow = typeof schema.invitations.$inferSelect;

export function serializeInvitation(row: InvitationRow): InvitationOutput {
  const status = row.acceptedAt
    ? 'ACCEPTED'
    : row.revokedAt
      ? 'REVOKED'
      : row.expiresAt.getTime() <= Date.now()
        ? 'EXPIRED'
        : 'PENDING';
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    status,
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
