import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import type { DomainServices } from '../shared/services.ts';
import { loadWorkflow } from './find-workflows.ts';
import { serializeWorkflow } from './serialize.ts';

export async function getWorkflow(
  db: Database,
  actor: Actor,
  id: string,
  services: Pick<DomainServices, 'baseUrl'>,
) {
  return serializeWorkflow(await loadWorkflow(db, actor, id), services.baseUrl);
}
