/** A whole-number knob from the environment: `fallback` when unset or empty, an error below `min`. */
export function intEnv(name: string, fallback: number, min = 0): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, got ${value}`);
  }
  return parsed;
}
