/** The audit log's actions, defined with the other shared vocabularies in @crm/constants. */
export { type AuditAction, auditActions } from '@crm/constants';
