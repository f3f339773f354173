import { DomainError, invalid } from '../shared/errors.ts';
import type { DomainServices } from '../shared/services.ts';
import type { Action } from './schemas.ts';
import { hasTemplate } from './templates.ts';

/**
 * HTTP_REQUEST destinations without templates are checked when the workflow is saved, so a
 * URL the service will never call is a 400 now rather than a failed run later. Templated
 * URLs are checked when the step runs (the address guard also runs at connect time).
 */
export async function checkActionUrls(actions: Action[], services: Pick<DomainServices, 'checkOutboundUrl'>) {
  for (const [index, action] of actions.entries()) {
    if (action.type !== 'HTTP_REQUEST' || hasTemplate(action.url)) continue;
    try {
      await services.checkOutboundUrl(action.url);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'VALIDATION_FAILED') {
        throw invalid(`actions.${index}.url`, error.details?.[0]?.message ?? error.message);
      }
      throw error;
    }
  }
}
