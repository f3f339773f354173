import type { Scope } from '@crm/constants';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';

/**
 * A job needs, beside `jobs:write` or `jobs:read` (its route's scope), the scope of what it does
 * to records: `records:write` for imports and updates, `records:read` for exports (docs/jobs.md,
 * "Scopes"). 403 as a route's own scope check answers.
 */
export function requireScope(actor: Actor, scope: Scope): void {
  if (actor.scopes.has(scope)) return;
  const message =
    actor.apiKeyId !== null
      ? `This API key lacks the ${scope} scope`
      : `Your role (${actor.role}) does not allow this: it needs ${scope}`;
  throw new DomainError('FORBIDDEN', message, { details: [{ path: 'scope', message: `needs ${scope}` }] });
}
