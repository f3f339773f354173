/** An amount in its currency (`$1,250.50`, `€100.10`); a code the browser does not know is written after the number. */
export function formatMoney(amount: number, currency: string): string {
  try {
    return amount.toLocaleString(undefined, { style: 'currency', currency });
  } catch {
    return `${amount.toLocaleString(undefined, { minimumFractionDigits: 2 })} ${currency}`;
  }
}
