/**
 * Refuses (DomainError VALIDATION_FAILED naming `url`) a destination the service may not send
 * to (docs/webhooks.md, "Destinations"). The API passes the service's address guard; the domain
 * knows nothing of how addresses are resolved.
 */
type CheckOutboundUrl = (url: string) => Promise<void>;

/**
 * What a few actions need of the server besides the database and the caller. An action that
 * needs some of it takes it last: `(db, actor, input, services)`.
 */
export interface DomainServices {
  /**
   * Where clients reach the service (PUBLIC_URL, else the address it listens on), for the
   * absolute URLs the API shows, such as a workflow's trigger URL.
   */
  baseUrl: string;
  /**
   * Refuses a webhook or HTTP action URL that is not http(s) or resolves to an address the
   * operator does not allow.
   */
  checkOutboundUrl: CheckOutboundUrl;
}
