import type { Database } from '@crm/db';
import type { Actor, DomainServices } from '@crm/domain';

/** What procedures need from the running service besides the database: what the domain's actions take. */
export type ApiServices = DomainServices;

/** The context every procedure runs with, on both surfaces (REST and tRPC). */
export interface ApiContext {
  db: Database;
  services: ApiServices;
  /** Null when the request carried no valid credential; authed procedures refuse it. */
  actor: Actor | null;
  requestId: string;
  /** Filled in by procedures: the REST status and extra headers of a successful response. */
  response: { status: number; headers: Record<string, string> };
}

export function createApiContext(
  db: Database,
  services: ApiServices,
  actor: Actor | null,
  requestId: string,
): ApiContext {
  return { db, services, actor, requestId, response: { status: 200, headers: {} } };
}
