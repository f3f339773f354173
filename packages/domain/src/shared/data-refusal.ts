/**
 * SQLSTATE classes of errors caused by the data a statement carried rather than by the
 * database or the connection: 22 data exception (a NUL in text, a lone surrogate, a number
 * out of range), 23 integrity constraint violation, 54 program limit exceeded (nesting too
 * deep).
 */
const DATA_CLASSES = new Set(['22', '23', '54']);

/**
 * Whether PostgreSQL refused a statement for what one of its items held. A batch that fails
 * so is retried item by item, so the item at fault fails alone and other items (other
 * tenants' among them) go through; an error of any other kind (the database is away) fails
 * the batch as a whole, since trying each item would only fail as many times. Looks through
 * wrapping errors (`cause`), as the ORM wraps the driver's.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code !== undefined && DATA_CLASSES.has(code.slice(0, 2));
}

/** The SQLSTATE of a PostgreSQL error, looking through wrapping errors (`cause`). */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
