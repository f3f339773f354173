import type { Actor } from '@crm/domain';
import type { Logger } from '../logger.ts';

/** What the middleware chain keeps on `ctx.state`. */
export interface AppState {
  requestId: string;
  log: Logger;
  actor?: Actor;
}
