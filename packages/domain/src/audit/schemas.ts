import { z } from 'zod';
import { actorTypes, changeSources } from '../shared/actor.ts';
import { pagingInput } from '../shared/paging.ts';
import { actorOutput, instantOutput, instantQueryInput, listEnvelope } from '../shared/schemas.ts';
import { auditActions } from './audit-actions.ts';

const auditEntryOutput = z
  .object({
    id: z.string(),
    at: instantOutput(),
    action: z.enum(auditActions),
    actor: actorOutput,
    source: z.enum(changeSources),
    requestId: z.string().nullable(),
    target: z
      .object({ type: z.string(), id: z.string() })
      .nullable()
      .meta({ description: 'What the action was on (`api_key` and its id, `webhook`, `folder`, `user` …).' }),
    details: z.record(z.string(), z.unknown()).meta({
      description:
        'The particulars of the action: a key’s scopes, a field’s key and type, a count. Never a secret.',
    }),
  })
  .meta({ id: 'AuditEntry' });

export type AuditEntryOutput = z.infer<typeof auditEntryOutput>;

export const auditLogEnvelope = listEnvelope(auditEntryOutput);

export const findAuditLogInput = z.strictObject({
  actorType: z.enum(actorTypes).optional().meta({ description: 'Only actions of this kind of actor.' }),
  actorId: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Only actions of this user, key, run or job.' }),
  action: z.enum(auditActions).optional().meta({ description: 'Only this action.' }),
  since: instantQueryInput().optional().meta({ description: 'Only actions at or after this instant.' }),
  pageSize: pagingInput.pageSize,
  cursor: pagingInput.cursor,
});

export type FindAuditLogInput = z.infer<typeof findAuditLogInput>;
