import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../testing/fixtures.ts';
import { advancedBy } from './recurrence.ts';
import type { TaskRecurrence } from './schemas.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

/** Evaluates an instant expression in a transaction whose session time zone is `zone`. */
async function evaluate(expression: SQL, zone = 'UTC'): Promise<string> {
  return t.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local time zone '${zone}'`));
    const result = await tx.execute<{ ms: number }>(
      sql`select (extract(epoch from (${expression})) * 1000)::float8 as ms`,
    );
    return new Date(result.rows[0]!.ms).toISOString();
  });
}

const next = (recurrence: TaskRecurrence, base: string, zone?: string) =>
  evaluate(advancedBy(recurrence, new Date(base)), zone);

describe('advancedBy', () => {
  it.each([
    ['DAILY', '2026-12-31T09:30:00.000Z', '2027-01-01T09:30:00.000Z'],
    ['WEEKLY', '2026-02-26T09:30:00.000Z', '2026-03-05T09:30:00.000Z'],
    ['MONTHLY', '2026-03-15T09:30:00.000Z', '2026-04-15T09:30:00.000Z'],
    ['YEARLY', '2026-07-01T00:00:00.000Z', '2027-07-01T00:00:00.000Z'],
  ] as const)('advances %s by its period and keeps the time of day', async (recurrence, base, expected) => {
    expect(await next(recurrence, base)).toBe(expected);
  });

  it('clamps a monthly due date on the 31st to the last day of a shorter month', async () => {
    expect(await next('MONTHLY', '2025-01-31T17:00:00.000Z')).toBe('2025-02-28T17:00:00.000Z');
    expect(await next('MONTHLY', '2024-01-31T17:00:00.000Z')).toBe('2024-02-29T17:00:00.000Z');
    expect(await next('MONTHLY', '2026-03-31T08:00:00.000Z')).toBe('2026-04-30T08:00:00.000Z');
  });

  it('clamps a yearly due date on Feb 29 to Feb 28', async () => {
    expect(await next('YEARLY', '2024-02-29T12:00:00.000Z')).toBe('2025-02-28T12:00:00.000Z');
  });

  it('computes on the UTC calendar whatever the session time zone', async () => {
    // New York enters daylight saving time on 2025-03-09: local arithmetic would give 11:00Z.
    expect(await next('DAILY', '2025-03-08T12:00:00.000Z', 'America/New_York')).toBe(
      '2025-03-09T12:00:00.000Z',
    );
    // In Tokyo this instant is already March 1st: local arithmetic would give March 31st.
    expect(await next('MONTHLY', '2025-02-28T20:00:00.000Z', 'Asia/Tokyo')).toBe('2025-03-28T20:00:00.000Z');
  });
});
