import type { ActorType, ChangeSource, Scope } from '@crm/constants';
import type { MemberRole } from '@crm/db/schema';

export { actorTypes, changeSources } from '@crm/constants';

/**
 * The provenance of a change: who made it (a user in the web app, an API key, a workflow run,
 * an import, an agent through MCP, the service itself), through which surface, and the id of
 * the request that carried it (null for work the service does on its own, such as the purge
 * of the Trash).
 */
export interface Provenance {
  actor: { type: ActorType; id: string; name: string };
  source: ChangeSource;
  requestId: string | null;
}

/** Who is calling: resolved from an API key, a signed-in session, or a workflow run. */
export interface Actor {
  workspaceId: string;
  userId: string;
  userName: string;
  role: MemberRole;
  apiKeyId: string | null;
  /** What the caller may do (api-keys/scopes.ts): a key's scopes, or a user's role's rights. */
  scopes: ReadonlySet<Scope>;
  /**
   * The folders whose records the caller reaches (a key limited to folders), or null for every
   * folder. Records, comments, calls and links elsewhere are not found for it.
   */
  folderIds: readonly string[] | null;
  /** Who the changes made for this caller are recorded as; see `provenanceOf`. */
  provenance?: Provenance;
  /**
   * The caller's changes notify nobody: their events are kept (the feed, history) but
   * delivered to no webhook and start no workflow. A job with `notify: false` (docs/jobs.md).
   */
  quiet?: boolean;
}

/**
 * The provenance of the changes `actor` makes: the one its surface gave it (gate.ts for keys
 * and sessions, the run for workflows), else the user itself through the service: a call from
 * inside the service (a CLI command, a test) that named no surface.
 */
export function provenanceOf(actor: Actor): Provenance {
  return (
    actor.provenance ?? {
      actor: { type: 'user', id: actor.userId, name: actor.userName },
      source: 'system',
      requestId: null,
    }
  );
}

/** The service itself, acting for a workspace (the purge of the Trash, scheduled clean-ups). */
export function systemProvenance(job: string): Provenance {
  return { actor: { type: 'system', id: job, name: job }, source: 'system', requestId: null };
}

/** Whether `actor` reaches records of `folderId`. */
export function reachesFolder(actor: Pick<Actor, 'folderIds'>, folderId: string): boolean {
  return actor.folderIds === null || actor.folderIds.includes(folderId);
}
