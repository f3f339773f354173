/**
 * For a value the code itself guarantees — the row an `insert … returning` just wrote, an
 * entry of a map built from the same list, a group of a regular expression that matched —
 * where the types cannot see it: `row ?? missing('the inserted row')`. Reaching it is a bug,
 * answered as an internal error (500) with the Error's message in the log, never a refusal
 * of the request (CONTRIBUTING.md, "Habits": no `!` in production code).
 */
export function missing(what: string): never {
  throw new Error(`Missing ${what}: the code guaranteed it`);
}
