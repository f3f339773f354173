import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';

/**
 * What a sandbox may send to (docs/operations.md, "Sandboxes"): null for a workspace that is
 * not one, whose webhooks and steps send anywhere the address guard allows.
 */
export interface SandboxPolicy {
  allow: string[];
}

/** The sandbox policy of a workspace, or null when it is not a sandbox. */
export async function sandboxPolicyOf(db: Executor, workspaceId: string): Promise<SandboxPolicy | null> {
  const w = schema.workspaces;
  const [row] = await db
    .select({ of: w.sandboxOf, allow: w.sandboxAllow })
    .from(w)
    .where(eq(w.id, workspaceId));
  return row?.of ? { allow: row.allow } : null;
}

/**
 * Whether a sandbox sends to `url`: when it starts with one of the allowed prefixes, compared
 * as URLs (scheme and host in any case, the default port or none, the path from its start).
 */
export function sandboxSends(policy: SandboxPolicy | null, url: string): boolean {
  if (policy === null) return true;
  if (!URL.canParse(url)) return false;
  const target = new URL(url);
  return policy.allow.some((entry) => {
    if (!URL.canParse(entry)) return false;
    const allowed = new URL(entry);
    if (allowed.origin !== target.origin) return false;
    const prefix = allowed.pathname.endsWith('/') ? allowed.pathname : `${allowed.pathname}/`;
    return (
      target.pathname === allowed.pathname || target.pathname.startsWith(prefix) || allowed.pathname === '/'
    );
  });
}

/** Why a sandbox kept a request instead of sending it, as its delivery or step shows it. */
export function capturedBecause(url: string): string {
  return `captured, not sent: this sandbox sends only to its allowed URLs, and ${url.slice(0, 300)} is not one`;
}
