/**
 * JSON with every object's keys in order, so that equal values give equal text whatever the
 * order their keys came in: an `Idempotency-Key`'s request fingerprint, and whether a
 * configuration document changes a workspace (config/plan-steps.ts). A property whose value is
 * undefined is left out, as JSON.stringify leaves it out.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
