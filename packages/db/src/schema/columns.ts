import { sql } from 'drizzle-orm';
import { customType, text, timestamp } from 'drizzle-orm/pg-core';

/** Instants are stored as timestamptz with millisecond precision, as the API writes them. */
export const instant = (name?: string) =>
  name
    ? timestamp(name, { withTimezone: true, precision: 3 })
    : timestamp({ withTimezone: true, precision: 3 });

export const createdAt = () => instant().notNull().default(sql`now()`);
export const updatedAt = () => instant().notNull().default(sql`now()`);

/**
 * Every tenant table carries the workspace id; it leads every index of the table.
 *
 * Newest-first indexes are declared `desc().nullsFirst()`: that is what `ORDER BY … DESC`
 * means, and PostgreSQL only reads an index for an ORDER BY whose NULLS placement matches,
 * even on NOT NULL columns.
 */
export const workspaceId = () => text().notNull();

/** Bytes, as a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
