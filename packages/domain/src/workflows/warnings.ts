/**
 * Warnings on save (docs/workflows.md, "Warnings on save"): action values that look like a
 * `{{ }}` template another tool filled in before the automation reached the service — n8n and
 * Make evaluate `{{ }}` themselves, and a path they do not know becomes "", "undefined" or
 * "null". The automation is saved as given; the warnings only say where to look. Each rule
 * is narrow on purpose, so that ordinary values never warn.
 */

import { withoutTemplates } from './templates.ts';

export interface SaveWarning {
  /** Where the value is, as in a 400's details: `actions.2.body.email`. */
  path: string;
  message: string;
}

const ADVICE =
  'was a {{ }} template here filled in by the tool that sent the automation? Write it as [[ … ]]';

/** The text a JavaScript tool writes for a value it could not find or could not print. */
const UNDEFINED_WORD = /\bundefined\b/;
const OBJECT_TEXT = '[object Object]';

/**
 * CONDITION operators for which comparing with "" makes no sense (everything contains "", and
 * "" is no number); EQUALS "" and NOT_EQUALS "" are fair tests and do not warn.
 */
const RIGHT_MUST_NOT_BE_EMPTY = new Set(['CONTAINS', 'NOT_CONTAINS', 'GREATER_THAN', 'LESS_THAN']);

/**
 * What an empty value is told. An UPDATE_RECORD clears email and phone with "" (and writes ""
 * into a custom field): null says the same on purpose, and does not warn.
 */
const EMPTY = `is empty: ${ADVICE}`;
const EMPTY_CLEARS = `is empty, which clears it: ${ADVICE} (give null to clear it on purpose)`;
const EMPTY_FIELD = `is empty: ${ADVICE} (give null for a field without a value)`;

/** A parameter (a custom-field value counts as one), a header value, or a string inside JSON. */
type Where = 'parameter' | 'header' | 'body';

/** The warning for one string value, or null when it looks ordinary. */
function warningFor(value: string, where: Where, empty: string): string | null {
  const trimmed = value.trim();
  if (trimmed === 'undefined') return `is "undefined": ${ADVICE}`;
  if (trimmed === 'null') return `is the text "null": ${ADVICE}`;
  // The words of a template's path (`[[ trigger.body.undefined ]]`) are not leftovers.
  const text = withoutTemplates(value);
  if (text.includes(OBJECT_TEXT)) return `contains "${OBJECT_TEXT}": ${ADVICE}`;
  if (UNDEFINED_WORD.test(text)) return `contains "undefined": ${ADVICE}`;
  // An empty string is ordinary in a JSON body (some APIs want one), so only elsewhere.
  if (trimmed === '' && where !== 'body') {
    return empty;
  }
  // HTTP drops the spaces at the end of a header value: "Bearer " lost what followed it.
  if (where === 'header' && /\s$/.test(value)) return `ends in a space: ${ADVICE}`;
  return null;
}

/**
 * Warns about `value` and, deeply, the strings inside it. Strings nested in a JSON value (an
 * HTTP body, a CONDITION side that is a list) are held to the rules of a body.
 */
function collect(value: unknown, path: string, where: Where, empty: string, out: SaveWarning[]): void {
  if (typeof value === 'string') {
    const message = warningFor(value, where, empty);
    if (message) out.push({ path, message });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      collect(item, `${path}.${i}`, 'body', EMPTY, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) collect(item, `${path}.${key}`, 'body', EMPTY, out);
  }
}

const isBlank = (value: unknown) => typeof value === 'string' && value.trim() === '';

/** Every warning of an action list, in action and parameter order. */
export function workflowWarnings(actions: readonly Record<string, unknown>[]): SaveWarning[] {
  const out: SaveWarning[] = [];
  actions.forEach((action, index) => {
    const type = action.type;
    for (const [key, value] of Object.entries(action)) {
      const path = `actions.${index}.${key}`;
      if (key === 'type' || key === 'operator' || key === 'method' || key === 'upsertBy') continue;
      const clears = type === 'UPDATE_RECORD' && (key === 'email' || key === 'phone');
      if (type === 'CONDITION' && key === 'right' && isBlank(value)) {
        if (!RIGHT_MUST_NOT_BE_EMPTY.has(String(action.operator))) continue;
      }
      if ((key === 'data' || key === 'headers') && value !== null && typeof value === 'object') {
        // Custom-field values and header values are parameters of their own.
        const [where, empty]: [Where, string] =
          key === 'headers' ? ['header', EMPTY] : ['parameter', EMPTY_FIELD];
        for (const [name, item] of Object.entries(value)) collect(item, `${path}.${name}`, where, empty, out);
        continue;
      }
      collect(value, path, key === 'body' ? 'body' : 'parameter', clears ? EMPTY_CLEARS : EMPTY, out);
    }
  });
  return out;
}
