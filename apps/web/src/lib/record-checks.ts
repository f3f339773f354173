/**
 * The checks `POST /records` makes of a record's values, in the browser: the CSV import's
 * preview judges each value with them before anything is sent. They are the server's own
 * (`@crm/domain/record-values`, the module the API's record schemas are built from), so they
 * give the messages the server gives, under the same paths (`title`, `email`, `data.score`).
 * The server still judges every row the import sends.
 */
import { customValueProblems, type FieldRule, recordValues } from '@crm/domain/record-values';

/** A custom field as a folder describes it (`folders.list`). */
export interface FieldLike extends FieldRule {
  key: string;
}

export interface ValueProblem {
  path: string;
  message: string;
}

/** A record's values as a create sends them. */
export interface RecordValues {
  title?: string | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  data?: Record<string, unknown> | undefined;
}

/**
 * What the server would refuse in a new record's values, each problem with its path, as
 * `POST /records` names it; an empty list when it would take them. Folder and owner are not
 * judged here (the import always sends the open folder and no owner).
 */
export function recordProblems(fields: FieldLike[], values: RecordValues): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const own = recordValues.safeParse({ title: values.title ?? '', email: values.email, phone: values.phone });
  if (!own.success) {
    for (const issue of own.error.issues)
      problems.push({ path: issue.path.join('.'), message: issue.message });
  }
  problems.push(...customValueProblems(fields, values.data ?? {}));
  return problems;
}

/** Problems as one line: `title must not be empty; data.score must be a number`. */
export function describeProblems(problems: ValueProblem[]): string {
  return problems.map((p) => `${p.path} ${p.message}`).join('; ');
}

/** The reason of a refused batch item: each field's message, or the error's own. */
export function reasonOf(error: { message: string; details?: ValueProblem[] | undefined }): string {
  return error.details && error.details.length > 0 ? describeProblems(error.details) : error.message;
}
