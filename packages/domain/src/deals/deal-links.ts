import { participantLinks } from '../relations/participants.ts';
import { updateDeal } from './update-deal.ts';

/**
 * The records a deal involves (docs/api.md, "Relations"): `POST /deals/{id}/links` links one
 * (201, or 200 when it was linked: its label changes), `DELETE /deals/{id}/links/{to}` removes
 * one (the primary record: `recordId` is cleared, with `deal.updated`), `GET /deals/{id}/links`
 * lists them.
 */
export const dealRecordLinks = participantLinks('deal', (db, actor, id) =>
  updateDeal(db, actor, { id, recordId: null }),
);
