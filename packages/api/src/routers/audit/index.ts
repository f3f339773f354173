import { auditLogEnvelope, findAuditLog, findAuditLogInput } from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

const tags = ['Audit log'];

export const auditRouter = router({
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'audit:read',
        openapi: {
          method: 'GET',
          path: '/audit-log',
          tags,
          summary: 'List the audit log',
          description:
            'Changes to keys, webhooks, workflows, members and invitations, and to the fields of folders; sign-ins and failed sign-ins, exports and purges: newest first, each with its actor, surface and request. Narrow by `actorType`, `actorId`, `action` and `since`; page with `cursor`. Kept a year (`AUDIT_RETENTION_DAYS`). Needs `audit:read`: an owner or admin, or a key of one with that scope.',
        },
      }),
    )
    .input(findAuditLogInput)
    .concat(declaredOutput(auditLogEnvelope))
    .query(({ ctx, input }) => findAuditLog(ctx.db, ctx.actor, input)),
});
