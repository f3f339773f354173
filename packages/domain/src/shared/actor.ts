import type { ApiKeyScope, MemberRole } from '@crm/db/schema';

/** Who is calling: resolved from an API key (or, later, a signed-in session). */
export interface Actor {
  workspaceId: string;
  userId: string;
  /** Display name of the user, used as comment author. */
  userName: string;
  role: MemberRole;
  apiKeyId: string | null;
  scopes: ApiKeyScope[];
}
