import { memberRoles } from '@crm/db/schema';
import { z } from 'zod';
import { instantOutput, nonBlankText } from '../shared/schemas.ts';
import { passwordInput } from './passwords.ts';

export const invitationOutput = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(memberRoles),
  invitedBy: z.string(),
  status: z.enum(['PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED']),
  expiresAt: instantOutput(),
  acceptedAt: instantOutput().nullable(),
  createdAt: instantOutput(),
});
export type InvitationOutput = z.infer<typeof invitationOutput>;

export const createInvitationInput = z.strictObject({
  email: z.email().max(320),
  role: z.enum(memberRoles).default('MEMBER'),
});

export const acceptInvitationInput = z.strictObject({
  token: z.string().min(1).max(200),
  name: nonBlankText(200)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters'),
  password: passwordInput,
});
