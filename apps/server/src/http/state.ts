import type { Actor } from '@crm/domain';
import type { Logger } from '../logger.ts';

/** What the middleware chain keeps on `ctx.state`. */
export interface AppState {
  requestId: string;
  log: Logger;
  actor?: Actor;
  /** The template of the route that answers (`/api/v1/records/{id}`), for logs and metrics. */
  route?: string;
}
