/**
 * The checks of a record's own values, in a module that needs nothing but zod: the record
 * schemas of the API are built from these, and the web app imports this very module
 * (`@crm/domain/record-values`) to judge a CSV import's rows before it sends them
 * (docs/web-app.md, "CSV import and export"), so the two cannot disagree. Nothing this module
 * imports may reach the database, drizzle or Node's own modules: it runs in the browser too.
 */
import { z } from 'zod';
import { nonBlankText, trimmedText } from '../shared/schemas.ts';

export {
  customValueProblems,
  type FieldRule,
} from '../shared/custom-values.ts';

export const recordTitle = nonBlankText(500);
export const recordEmail = z.email('must be an email address').max(320);
export const recordPhone = trimmedText(64);

/** A new record's own values as `POST /records` judges them (its folder, owner and custom values aside). */
export const recordValues = z.object({
  title: recordTitle,
  email: recordEmail.nullish(),
  phone: recordPhone.nullish(),
});
