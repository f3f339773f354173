import {
  allScopes,
  type KeyScope,
  managerResources,
  type Scope,
  type ScopeResource,
  scopeResources,
  workspaceWideScopes,
} from '@crm/constants';
import type { MemberRole } from '@crm/db/schema';

/**
 * What a caller may do, as a set of scopes (docs/api.md, "Scopes"). A signed-in user holds
 * the rights of their role; an API key holds the scopes it lists, expanded from the
 * shorthands, and never more than the rights of the member who made it, as that member's role
 * is now, nor, when limited to folders, a scope whose reach is the whole workspace. Computed
 * when a key is verified and kept with it: checking a call costs a set lookup.
 */

const EVERY = Object.freeze(new Set(allScopes));
const MEMBER_RIGHTS = Object.freeze(
  new Set(allScopes.filter((scope) => !managerResources.includes(resourceOf(scope)))),
);

function resourceOf(scope: Scope): ScopeResource {
  return scope.slice(0, scope.indexOf(':')) as ScopeResource;
}

/** The rights of a member's role: everything for an owner or admin; a member manages no webhook or workflow and reads no audit log. */
export function rightsOf(role: MemberRole): ReadonlySet<Scope> {
  return role === 'MEMBER' ? MEMBER_RIGHTS : EVERY;
}

/**
 * The scopes a key's list stands for: `read` every `<resource>:read`, `write` every
 * `<resource>:write` and `<resource>:delete` (a key made before scopes were per resource
 * deleted with `write`), and each `<resource>:<action>` itself.
 */
function expandScopes(scopes: readonly KeyScope[]): Set<Scope> {
  const expanded = new Set<Scope>();
  for (const scope of scopes) {
    if (scope === 'read') {
      for (const s of allScopes) if (s.endsWith(':read')) expanded.add(s);
    } else if (scope === 'write') {
      for (const s of allScopes) if (s.endsWith(':write') || s.endsWith(':delete')) expanded.add(s);
    } else {
      expanded.add(scope);
    }
  }
  return expanded;
}

/**
 * What a key may do: its expanded scopes within its maker's rights. A key limited to folders
 * (`folderIds` not null) holds none of `workspaceWideScopes`: a `write` it was made with
 * stands for the rest. A key made before scopes were per resource (`read`, `write`, every
 * folder) therefore keeps what it had, unless its maker is a MEMBER: then it holds no
 * webhook, workflow or audit scope either (docs/api.md, "Scopes").
 */
export function keyRights(
  scopes: readonly KeyScope[],
  makerRole: MemberRole,
  folderIds: readonly string[] | null = null,
): ReadonlySet<Scope> {
  const rights = rightsOf(makerRole);
  const effective = new Set<Scope>();
  for (const scope of expandScopes(scopes)) {
    if (rights.has(scope) && (folderIds === null || !workspaceWideScopes.includes(scope)))
      effective.add(scope);
  }
  return effective;
}

/** The scopes a key's list names explicitly that `role` does not hold: a key asking for them is refused. */
export function scopesBeyond(scopes: readonly KeyScope[], role: MemberRole): Scope[] {
  const rights = rightsOf(role);
  return scopes.filter((s): s is Scope => s !== 'read' && s !== 'write' && !rights.has(s));
}

/** The scopes a key's list names explicitly that a key limited to folders cannot hold: a key asking for them is refused. */
export function scopesBeyondFolders(scopes: readonly KeyScope[]): Scope[] {
  return scopes.filter((s): s is Scope => s !== 'read' && s !== 'write' && workspaceWideScopes.includes(s));
}

/** Whether `scope` is a scope the service knows (`<resource>:<action>` of scopeResources). */
export function isScope(value: string): value is Scope {
  const [resource, action] = value.split(':');
  const actions = scopeResources[resource as ScopeResource] as readonly string[] | undefined;
  return actions !== undefined && action !== undefined && actions.includes(action);
}

export {
  allScopes,
  type KeyScope,
  type Scope,
  workspaceWideScopes,
} from '@crm/constants';
