/** An amount in its currency (`$1,250.50`, `€100.10`); a code the browser does not know is written after the number. */
export function formatMoney(amount: number, currency: string): string {
  try {
    return amount.toLocaleString(undefined, { style: 'currency', currency });
  } catch {
    return `${amount.toLocaleString(undefined, { minimumFractionDigits: 2 })} ${currency}`;
  }
}

/**
 * A stored value as text to type or export: nothing for no value, a MULTI_SELECT's options
 * joined by `, `, anything else as written. `optionsFromText` reads the options back.
 */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** A MULTI_SELECT's options as typed or imported: split at commas, blanks dropped. */
export function optionsFromText(text: string): string[] {
  return text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}
