import type { Database } from '@crm/db';
import type { Actor } from '@crm/domain';

/** The context every procedure runs with, on both surfaces (REST and tRPC). */
export interface ApiContext {
  db: Database;
  /** Null when the request carried no valid credential; authed procedures refuse it. */
  actor: Actor | null;
  requestId: string;
  /** Filled in by procedures: the REST status and extra headers of a successful response. */
  response: { status: number; headers: Record<string, string> };
}

export function createApiContext(db: Database, actor: Actor | null, requestId: string): ApiContext {
  return { db, actor, requestId, response: { status: 200, headers: {} } };
}
