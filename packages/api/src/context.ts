import type { Database } from '@crm/db';
import type { Actor } from '@crm/domain';

/** What procedures need from the running service besides the database. */
export interface ApiServices {
  /**
   * Refuses (throws a DomainError VALIDATION_FAILED naming `url`) a webhook or HTTP action
   * URL that is not http(s) or resolves to an address the operator does not allow
   * (docs/webhooks.md, "Destinations").
   */
  checkOutboundUrl(url: string): Promise<void>;
  /**
   * Where clients reach the service (PUBLIC_URL, else the address it listens on), for the
   * absolute URLs the API shows, such as a workflow's trigger URL.
   */
  baseUrl: string;
}

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
