import { Cron } from 'croner';
import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  checkDelayUntil,
  checkDuration,
  checkSchedule,
  dueFiring,
  instantOfLocalTime,
  isTimeZone,
  nextFiring,
  resumeAfter,
  resumeUntil,
} from './timing.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The next `n` firings after `from`, as local times: `2026-03-29 03:00 +02:00`. */
function firings(cron: string, timezone: string, from: string, n: number): string[] {
  const out: string[] = [];
  let after = new Date(from);
  for (let i = 0; i < n; i++) {
    after = nextFiring(cron, timezone, after);
    out.push(DateTime.fromJSDate(after, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm ZZ'));
  }
  return out;
}

describe('isTimeZone', () => {
  it('takes UTC and IANA Area/Location names, older ones included', () => {
    for (const name of [
      'UTC',
      'Europe/Berlin',
      'America/New_York',
      'America/Argentina/Buenos_Aires',
      'Asia/Kolkata',
      'Asia/Calcutta',
      'Australia/Lord_Howe',
    ]) {
      expect(isTimeZone(name), name).toBe(true);
    }
  });

  it('refuses offsets, abbreviations, other spellings and unknown names, even those Intl takes', () => {
    for (const name of [
      '+01:00',
      'UTC+1',
      'Etc/GMT-1',
      'CET',
      'EST',
      'GMT',
      'US/Eastern',
      'utc',
      'europe/berlin',
      'Mars/Base',
      'Europe/Atlantis',
      '',
    ]) {
      expect(isTimeZone(name), name).toBe(false);
    }
  });
});

describe('instantOfLocalTime', () => {
  const at = (local: string, zone: string) => {
    const [date = '', time = ''] = local.split(' ');
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    const [hour, minute] = time.split(':').map(Number) as [number, number];
    return instantOfLocalTime({ year, month, day, hour, minute }, zone).toISOString();
  };

  it('moves a skipped time to the end of its gap, not by the length of the gap as luxon does', () => {
    expect(at('2026-03-29 02:30', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
    expect(
      DateTime.fromObject({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, { zone: 'Europe/Berlin' })
        .toUTC()
        .toISO(),
    ).toBe('2026-03-29T01:30:00.000Z');
    expect(at('2026-10-04 02:15', 'Australia/Lord_Howe')).toBe('2026-10-03T15:30:00.000Z');
  });

  it('takes the first occurrence of a repeated time, where luxon takes the second', () => {
    expect(at('2026-10-25 02:30', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    expect(
      DateTime.fromObject({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, { zone: 'Europe/Berlin' })
        .toUTC()
        .toISO(),
    ).toBe('2026-10-25T01:30:00.000Z');
    expect(at('2026-11-01 01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(at('2026-04-05 01:45', 'Australia/Lord_Howe')).toBe('2026-04-04T14:45:00.000Z');
  });

  it('reads an ordinary time with the offset of its day', () => {
    expect(at('2026-07-01 09:00', 'Europe/Berlin')).toBe('2026-07-01T07:00:00.000Z');
    expect(at('2026-01-01 09:00', 'Asia/Tokyo')).toBe('2026-01-01T00:00:00.000Z');
    expect(at('2026-01-01 09:00', 'UTC')).toBe('2026-01-01T09:00:00.000Z');
  });
});

describe('checkSchedule', () => {
  it('takes the 5 standard fields, names, 7 for Sunday and croner’s nicknames', () => {
    for (const cron of [
      '0 9 * * 1-5',
      '*/5 * * * *',
      '0 8-18/2 * * MON-FRI',
      '15,45 9 1,15 JAN,jul *',
      '0 0 * * 7',
      '0 0 29 2 *',
      '  0 9 * * 1-5 ',
      '@hourly',
      '@daily',
      '@midnight',
      '@weekly',
      '@monthly',
      '@yearly',
      '@annually',
      '@HOURLY',
    ]) {
      expect(checkSchedule(cron, 'Europe/Berlin'), cron).toBeNull();
    }
  });

  it('refuses another number of fields', () => {
    expect(checkSchedule('* * * * * *', 'UTC')).toBe(
      'cron must have 5 fields (minute hour day-of-month month day-of-week), not 6',
    );
    expect(checkSchedule('0 9 * * 1-5 2026', 'UTC')).toMatch(/^cron must have 5 fields .*, not 6$/);
    expect(checkSchedule('0 9 * *', 'UTC')).toMatch(/, not 4$/);
    expect(checkSchedule('', 'UTC')).toMatch(/, not 0$/);
  });

  it('refuses values out of range with the value as written', () => {
    expect(checkSchedule('60 * * * *', 'UTC')).toBe('cron minute 60 is out of range (0-59)');
    expect(checkSchedule('0 24 * * *', 'UTC')).toBe('cron hour 24 is out of range (0-23)');
    expect(checkSchedule('0 0 32 * *', 'UTC')).toBe('cron day-of-month 32 is out of range (1-31)');
    expect(checkSchedule('0 0 0 * *', 'UTC')).toBe('cron day-of-month 0 is out of range (1-31)');
    expect(checkSchedule('0 0 * 13 *', 'UTC')).toBe('cron month 13 is out of range (1-12)');
    expect(checkSchedule('0 0 * * 8', 'UTC')).toBe('cron day-of-week 8 is out of range (0-7)');
    expect(checkSchedule('0 0 * * 1-9', 'UTC')).toBe('cron day-of-week 9 is out of range (0-7)');
  });

  it('refuses croner’s extensions and anything else that is not standard syntax', () => {
    for (const cron of [
      '0 9 L * *',
      '0 9 15W * *',
      '0 9 * * MON#2',
      '0 9 * * 5L',
      '0 9 * * +MON',
      '? 9 * * *',
    ]) {
      expect(checkSchedule(cron, 'UTC'), cron).toMatch(/^cron (day-of-month|day-of-week|minute) "/);
    }
    expect(checkSchedule('0 9 * * FOO', 'UTC')).toBe('cron day-of-week "FOO" is not a number or a name');
    expect(checkSchedule('0 9 MON * *', 'UTC')).toBe('cron day-of-month "MON" is not a number');
    expect(checkSchedule('0 9 * * 1-', 'UTC')).toBe(
      'cron day-of-week "1-" must be a number, *, a range (1-5), a list (1,3,5) or a step (*/15), or a name (SUN-SAT)',
    );
    expect(checkSchedule('0 9 1,,2 * *', 'UTC')).toMatch(/^cron day-of-month "1,,2" must be/);
    // A string with a colon would be a one-off date to croner.
    expect(checkSchedule('2026-12-01T09:00 * * * *', 'UTC')).toMatch(/^cron minute "/);
  });

  it('passes on croner’s word for steps and ranges it cannot read', () => {
    expect(checkSchedule('*/0 * * * *', 'UTC')).toMatch(/^cron "\*\/0 \* \* \* \*" is not valid: .*stepping/);
    expect(checkSchedule('5/5 * * * *', 'UTC')).toMatch(/^cron "5\/5 \* \* \* \*" is not valid: /);
    expect(checkSchedule('5-1 * * * *', 'UTC')).toMatch(/is not valid: From value is larger than to value/);
    expect(checkSchedule('0 0 * * FRI-MON', 'UTC')).toMatch(/is not valid: /);
  });

  it('refuses unknown nicknames and @reboot', () => {
    expect(checkSchedule('@reboot', 'UTC')).toMatch(/^cron "@reboot" is not a known nickname/);
    expect(checkSchedule('@often', 'UTC')).toMatch(/^cron "@often" is not a known nickname/);
  });

  it('refuses an expression that never fires', () => {
    for (const cron of ['0 0 31 2 *', '0 0 30 2 *', '0 0 31 4,6,9,11 *', '0 0 30,31 2 *']) {
      expect(checkSchedule(cron, 'UTC'), cron).toBe(
        `cron "${cron}" never fires: no date matches its day-of-month, month and day-of-week`,
      );
    }
    // Either day field may match when both are restricted, so this fires on Mondays of February.
    expect(checkSchedule('0 0 31 2 MON', 'UTC')).toBeNull();
  });

  it('refuses a time zone that is not an IANA name, with a message that starts with "timezone"', () => {
    expect(checkSchedule('0 9 * * *', 'Mars/Base')).toBe(
      'timezone "Mars/Base" is not an IANA time zone (such as Europe/Berlin, America/New_York or UTC)',
    );
    expect(checkSchedule('0 9 * * *', 'CET')).toMatch(/^timezone "CET"/);
  });
});

describe('the day rule of Vixie cron', () => {
  const days = (cron: string, n: number) =>
    firings(cron, 'UTC', '2026-01-01T12:00:00Z', n).map((local) => local.slice(0, 10));

  it('runs on a day matching either field when both are restricted', () => {
    // 2026-02-01 is a Sunday; the Mondays of February are the 2nd, 9th, 16th and 23rd.
    expect(days('0 0 1 * MON', 6)).toEqual([
      '2026-01-05',
      '2026-01-12',
      '2026-01-19',
      '2026-01-26',
      '2026-02-01',
      '2026-02-02',
    ]);
  });

  it('runs on a day matching both when one starts with * (so */2 too), as entry.c decides', () => {
    // Odd days that are Mondays: 5, 19 January, 9, 23 February.
    expect(days('0 0 */2 * MON', 4)).toEqual(['2026-01-05', '2026-01-19', '2026-02-09', '2026-02-23']);
    expect(days('0 0 1 * */7', 2)).toEqual(['2026-02-01', '2026-03-01']);
    expect(days('0 0 1 * *', 2)).toEqual(['2026-02-01', '2026-03-01']);
    expect(days('0 0 * * MON', 2)).toEqual(['2026-01-05', '2026-01-12']);
  });
});

describe('nextFiring across changes of the clock', () => {
  it('Europe/Berlin, spring forward (02:00 → 03:00 on 2026-03-29)', () => {
    expect(firings('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 2)).toEqual([
      '2026-03-29 03:00 +02:00',
      '2026-03-30 02:30 +02:00',
    ]);
    expect(firings('30 * * * *', 'Europe/Berlin', '2026-03-28T23:00:00Z', 4)).toEqual([
      '2026-03-29 00:30 +01:00',
      '2026-03-29 01:30 +01:00',
      '2026-03-29 03:00 +02:00',
      '2026-03-29 03:30 +02:00',
    ]);
    expect(firings('* * * * *', 'Europe/Berlin', '2026-03-29T00:58:00Z', 3)).toEqual([
      '2026-03-29 01:59 +01:00',
      '2026-03-29 03:00 +02:00',
      '2026-03-29 03:01 +02:00',
    ]);
    expect(firings('*/30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 2)).toEqual([
      '2026-03-29 03:00 +02:00',
      '2026-03-30 02:00 +02:00',
    ]);
  });

  it('Europe/Berlin, fall back (03:00 → 02:00 on 2026-10-25)', () => {
    expect(firings('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25 02:30 +02:00',
      '2026-10-26 02:30 +01:00',
    ]);
    expect(firings('30 * * * *', 'Europe/Berlin', '2026-10-24T23:00:00Z', 3)).toEqual([
      '2026-10-25 01:30 +02:00',
      '2026-10-25 02:30 +02:00',
      '2026-10-25 03:30 +01:00',
    ]);
    // Each local minute once: the second pass through 02:00–02:59 fires nothing.
    expect(firings('* * * * *', 'Europe/Berlin', '2026-10-25T00:58:00Z', 3)).toEqual([
      '2026-10-25 02:59 +02:00',
      '2026-10-25 03:00 +01:00',
      '2026-10-25 03:01 +01:00',
    ]);
    // From inside the second pass, the next firing is the first minute after it.
    expect(nextFiring('* * * * *', 'Europe/Berlin', new Date('2026-10-25T01:10:00Z')).toISOString()).toBe(
      '2026-10-25T02:00:00.000Z',
    );
  });

  it('America/New_York, spring forward (02:00 → 03:00 on 2026-03-08)', () => {
    expect(firings('30 2 * * *', 'America/New_York', '2026-03-07T17:00:00Z', 2)).toEqual([
      '2026-03-08 03:00 -04:00',
      '2026-03-09 02:30 -04:00',
    ]);
    expect(firings('30 * * * *', 'America/New_York', '2026-03-08T05:00:00Z', 4)).toEqual([
      '2026-03-08 00:30 -05:00',
      '2026-03-08 01:30 -05:00',
      '2026-03-08 03:00 -04:00',
      '2026-03-08 03:30 -04:00',
    ]);
    expect(firings('* * * * *', 'America/New_York', '2026-03-08T06:58:00Z', 3)).toEqual([
      '2026-03-08 01:59 -05:00',
      '2026-03-08 03:00 -04:00',
      '2026-03-08 03:01 -04:00',
    ]);
  });

  it('America/New_York, fall back (02:00 → 01:00 on 2026-11-01)', () => {
    expect(firings('30 1 * * *', 'America/New_York', '2026-10-31T17:00:00Z', 2)).toEqual([
      '2026-11-01 01:30 -04:00',
      '2026-11-02 01:30 -05:00',
    ]);
    expect(firings('30 2 * * *', 'America/New_York', '2026-10-31T17:00:00Z', 2)).toEqual([
      '2026-11-01 02:30 -05:00',
      '2026-11-02 02:30 -05:00',
    ]);
    expect(firings('30 * * * *', 'America/New_York', '2026-11-01T04:00:00Z', 3)).toEqual([
      '2026-11-01 00:30 -04:00',
      '2026-11-01 01:30 -04:00',
      '2026-11-01 02:30 -05:00',
    ]);
    expect(firings('* * * * *', 'America/New_York', '2026-11-01T05:58:00Z', 3)).toEqual([
      '2026-11-01 01:59 -04:00',
      '2026-11-01 02:00 -05:00',
      '2026-11-01 02:01 -05:00',
    ]);
  });

  it('Australia/Lord_Howe, whose clock moves by 30 minutes', () => {
    // Spring forward on 2026-10-04: 02:00 (+10:30) → 02:30 (+11:00).
    expect(firings('15 2 * * *', 'Australia/Lord_Howe', '2026-10-03T00:00:00Z', 2)).toEqual([
      '2026-10-04 02:30 +11:00',
      '2026-10-05 02:15 +11:00',
    ]);
    expect(firings('*/10 * * * *', 'Australia/Lord_Howe', '2026-10-03T15:25:00Z', 2)).toEqual([
      '2026-10-04 02:30 +11:00',
      '2026-10-04 02:40 +11:00',
    ]);
    // Fall back on 2026-04-05: 02:00 (+11:00) → 01:30 (+10:30).
    expect(firings('45 1 * * *', 'Australia/Lord_Howe', '2026-04-04T00:00:00Z', 2)).toEqual([
      '2026-04-05 01:45 +11:00',
      '2026-04-06 01:45 +10:30',
    ]);
    expect(firings('* * * * *', 'Australia/Lord_Howe', '2026-04-04T14:57:00Z', 3)).toEqual([
      '2026-04-05 01:58 +11:00',
      '2026-04-05 01:59 +11:00',
      '2026-04-05 02:00 +10:30',
    ]);
  });

  it('Asia/Tokyo, which keeps one offset', () => {
    expect(firings('30 2 * * *', 'Asia/Tokyo', '2026-03-28T12:00:00Z', 2)).toEqual([
      '2026-03-29 02:30 +09:00',
      '2026-03-30 02:30 +09:00',
    ]);
    expect(firings('0 9 * * 1-5', 'Asia/Tokyo', '2026-11-27T00:00:00Z', 3)).toEqual([
      '2026-11-30 09:00 +09:00',
      '2026-12-01 09:00 +09:00',
      '2026-12-02 09:00 +09:00',
    ]);
  });

  it('a day whose midnight is skipped (America/Havana, 00:00 → 01:00)', () => {
    expect(firings('0 0 * * *', 'America/Havana', '2026-03-07T12:00:00Z', 2)).toEqual([
      '2026-03-08 01:00 -04:00',
      '2026-03-09 00:00 -04:00',
    ]);
  });

  it('fires strictly after `after`, on whole minutes', () => {
    expect(nextFiring('0 9 * * *', 'UTC', new Date('2026-01-01T09:00:00Z')).toISOString()).toBe(
      '2026-01-02T09:00:00.000Z',
    );
    expect(nextFiring('* * * * *', 'UTC', new Date('2026-01-01T09:00:00.500Z')).toISOString()).toBe(
      '2026-01-01T09:01:00.000Z',
    );
    expect(nextFiring('0 9 * * *', 'UTC', new Date('2026-01-01T08:59:59.999Z')).toISOString()).toBe(
      '2026-01-01T09:00:00.000Z',
    );
  });

  it('throws for a schedule checkSchedule refuses', () => {
    expect(() => nextFiring('0 9 * *', 'UTC', new Date())).toThrow(/5 fields/);
    expect(() => nextFiring('0 9 * * *', 'CET', new Date())).toThrow(/timezone "CET"/);
  });
});

describe('croner’s own walk in a time zone, which this file does not use', () => {
  const croner = (cron: string, timezone: string, from: string, n: number) =>
    new Cron(cron, { timezone, mode: '5-part' })
      .nextRuns(n, new Date(from))
      .map((d) => DateTime.fromJSDate(d, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm ZZ'));

  it('skips a skipped time unless minute and hour are single values, and fires a repeated one twice', () => {
    expect(croner('30 * * * *', 'Europe/Berlin', '2026-03-29T00:00:00Z', 2)).toEqual([
      '2026-03-29 01:30 +01:00',
      '2026-03-29 03:30 +02:00',
    ]);
    expect(croner('*/30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 1)).toEqual([
      '2026-03-30 02:00 +02:00',
    ]);
    expect(croner('30 * * * *', 'Europe/Berlin', '2026-10-25T00:00:00Z', 2)).toEqual([
      '2026-10-25 02:30 +02:00',
      '2026-10-25 02:30 +01:00',
    ]);
    // 02:30 fires twice when 03:30 is in the list too, and once when it is not.
    expect(croner('30 2,3 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25 02:30 +02:00',
      '2026-10-25 02:30 +01:00',
    ]);
    expect(croner('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25 02:30 +02:00',
      '2026-10-26 02:30 +01:00',
    ]);
  });
});

describe('dueFiring', () => {
  const due = (cron: string, since: string, now: string, timezone = 'Europe/Berlin') =>
    dueFiring(cron, timezone, new Date(since), new Date(now))?.toISOString() ?? null;

  it('gives the firing that just came due', () => {
    expect(due('0 9 * * *', '2026-06-01T07:00:00Z', '2026-06-02T07:00:05Z')).toBe('2026-06-02T07:00:00.000Z');
  });

  it('gives a missed firing up to an hour late, and not a millisecond later', () => {
    expect(due('0 9 * * *', '2026-06-01T07:00:00Z', '2026-06-02T08:00:00Z')).toBe('2026-06-02T07:00:00.000Z');
    expect(due('0 9 * * *', '2026-06-01T07:00:00Z', '2026-06-02T08:00:00.001Z')).toBeNull();
  });

  it('gives only the latest of several missed firings', () => {
    expect(due('*/5 * * * *', '2026-06-02T06:00:00Z', '2026-06-02T07:07:00Z')).toBe(
      '2026-06-02T07:05:00.000Z',
    );
    expect(due('0 9 * * *', '2026-05-28T07:00:00Z', '2026-06-02T07:30:00Z')).toBe('2026-06-02T07:00:00.000Z');
  });

  it('never gives a firing at or before `since`', () => {
    expect(due('0 9 * * *', '2026-06-02T07:00:00Z', '2026-06-02T07:00:30Z')).toBeNull();
    // A schedule created a moment before its first firing runs it; one created just after does not.
    expect(due('0 9 * * *', '2026-06-02T06:59:30Z', '2026-06-02T07:00:10Z')).toBe('2026-06-02T07:00:00.000Z');
    expect(due('0 9 * * *', '2026-06-02T07:00:30Z', '2026-06-02T07:00:40Z')).toBeNull();
    expect(due('0 9 * * *', '2026-06-03T00:00:00Z', '2026-06-02T07:30:00Z')).toBeNull();
  });

  it('gives a firing moved to the end of a gap once, and the first pass of a repeated hour', () => {
    expect(due('30 2 * * *', '2026-03-28T01:30:00Z', '2026-03-29T01:10:00Z')).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(due('* * * * *', '2026-10-25T00:59:00Z', '2026-10-25T01:30:00Z')).toBeNull();
    expect(due('* * * * *', '2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z')).toBe('2026-10-25T00:59:00.000Z');
  });
});

// ── Properties ─────────────────────────────────────────────────────────────────────────────

const SEED = process.env.TIMING_SEED ? Number(process.env.TIMING_SEED) : undefined;
const RUNS = process.env.TIMING_RUNS ? Number(process.env.TIMING_RUNS) : 150;
const settings = { seed: SEED, numRuns: RUNS };

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Tokyo',
  'UTC',
  'America/Sao_Paulo',
  'America/Havana',
  'Pacific/Chatham',
  'Australia/Sydney',
  'Asia/Kolkata',
  'America/St_Johns',
  'Europe/London',
];
const FROM = Date.UTC(2016, 0, 1);
const TO = Date.UTC(2032, 0, 1);

/** The instants a zone changes its offset between FROM and TO, to the second. */
function transitionsOf(timezone: string): number[] {
  const zone = IANAZone.create(timezone);
  const out: number[] = [];
  const step = 6 * HOUR;
  for (let t = FROM; t < TO; t += step) {
    if (zone.offset(t) === zone.offset(t + step)) continue;
    let [lo, hi] = [t, t + step];
    while (hi - lo > 1000) {
      const mid = Math.floor((lo + hi) / 2);
      if (zone.offset(mid) === zone.offset(lo)) lo = mid;
      else hi = mid;
    }
    out.push(hi);
  }
  return out;
}
const TRANSITIONS = new Map(ZONES.map((zone) => [zone, transitionsOf(zone)]));

/** A cron field as text and the values it stands for. */
interface Field {
  text: string;
  values: Set<number>;
}

const range = (from: number, to: number, step = 1) => {
  const out: number[] = [];
  for (let n = from; n <= to; n += step) out.push(n);
  return out;
};

/** A random field between min and max, as text and as values, with names where `names` has them. */
function fieldOf(min: number, max: number, starWeight: number, names: readonly string[] = []) {
  const name = (n: number) => names[n - min] ?? String(n);
  const single = fc.integer({ min, max }).map((n) => ({ text: String(n), values: [n] }));
  const span = fc
    .tuple(fc.integer({ min, max }), fc.integer({ min, max }), fc.integer({ min: 1, max: max - min }))
    .map(([a, b, step]) => {
      const [from, to] = a <= b ? [a, b] : [b, a];
      return step === 1 || to === from
        ? { text: `${from}-${to}`, values: range(from, to) }
        : { text: `${from}-${to}/${step}`, values: range(from, to, step) };
    });
  const named = () =>
    fc.integer({ min, max: min + names.length - 1 }).map((n) => ({ text: name(n), values: [n] }));
  const item = names.length > 0 ? fc.oneof(single, span, named()) : fc.oneof(single, span);
  return fc.oneof(
    { weight: starWeight, arbitrary: fc.constant<Field>({ text: '*', values: new Set(range(min, max)) }) },
    {
      weight: 2,
      arbitrary: fc
        .integer({ min: 2, max: Math.max(2, Math.floor((max - min) / 2)) })
        .map((step): Field => ({ text: `*/${step}`, values: new Set(range(min, max, step)) })),
    },
    {
      weight: 4,
      arbitrary: fc.array(item, { minLength: 1, maxLength: 3 }).map(
        (items): Field => ({
          text: items.map((i) => i.text).join(','),
          values: new Set(items.flatMap((i) => i.values)),
        }),
      ),
    },
  );
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface Expression {
  cron: string;
  minute: Field;
  hour: Field;
  dom: Field;
  month: Field;
  dow: Field;
}

const expression = (minute = fieldOf(0, 59, 1)) =>
  fc
    .record({
      minute,
      hour: fieldOf(0, 23, 3),
      dom: fieldOf(1, 31, 12),
      month: fieldOf(1, 12, 12, MONTHS),
      dow: fieldOf(0, 7, 8, DAYS),
    })
    .map(
      (f): Expression => ({
        ...f,
        cron: [f.minute, f.hour, f.dom, f.month, f.dow].map((x) => x.text).join(' '),
      }),
    );

/** An instant over the years, or (half the time) within 2 hours of a change of the clock. */
const instantIn = (timezone: string) => {
  const changes = TRANSITIONS.get(timezone) ?? [];
  const uniform = fc.integer({ min: FROM, max: TO });
  if (changes.length === 0) return uniform;
  return fc.oneof(
    uniform,
    fc
      .tuple(fc.constantFrom(...changes), fc.integer({ min: -2 * HOUR, max: 2 * HOUR }))
      .map(([t, d]) => t + d),
  );
};

const scenario = (minute?: fc.Arbitrary<Field>) =>
  fc
    .constantFrom(...ZONES)
    .chain((timezone) =>
      fc.record({ timezone: fc.constant(timezone), e: expression(minute), at: instantIn(timezone) }),
    );

/** Whether a local time (written as if UTC) matches, by Vixie's day rule. */
function matches(e: Expression, wall: number): boolean {
  const d = new Date(wall);
  const weekday = d.getUTCDay();
  const dowOk = e.dow.values.has(weekday) || (weekday === 0 && e.dow.values.has(7));
  const dayOk =
    e.dom.text.startsWith('*') || e.dow.text.startsWith('*')
      ? e.dom.values.has(d.getUTCDate()) && dowOk
      : e.dom.values.has(d.getUTCDate()) || dowOk;
  return (
    dayOk &&
    e.minute.values.has(d.getUTCMinutes()) &&
    e.hour.values.has(d.getUTCHours()) &&
    e.month.values.has(d.getUTCMonth() + 1)
  );
}

const wallOf = (t: number, zone: IANAZone) => t + zone.offset(t) * MINUTE;

/**
 * The first firing after `after` found by stepping through real minutes: a minute fires when
 * its local time matches and is seen for the first time, or when a local time the clock just
 * jumped over matches. Null if none before `until`.
 */
function bruteNext(e: Expression, timezone: string, after: number, until: number): number | null {
  const zone = IANAZone.create(timezone);
  const seen = new Set<number>();
  let previous: number | null = null;
  for (let t = Math.floor(after / MINUTE) * MINUTE - 3 * HOUR; t <= until; t += MINUTE) {
    const wall = wallOf(t, zone);
    let fires = !seen.has(wall) && matches(e, wall);
    if (previous !== null)
      for (let w = previous + MINUTE; w < wall && !fires; w += MINUTE) fires = matches(e, w);
    seen.add(wall);
    previous = Math.max(previous ?? wall, wall);
    if (fires && t > after) return t;
  }
  return null;
}

function valid(e: Expression, timezone: string): boolean {
  const problem = checkSchedule(e.cron, timezone);
  if (problem !== null) expect(problem).toMatch(/never fires/);
  return problem === null;
}

describe('nextFiring, properties', () => {
  it('fires after `after`, on whole minutes, each firing later than the one before', () => {
    fc.assert(
      fc.property(scenario(), ({ timezone, e, at }) => {
        fc.pre(valid(e, timezone));
        let after = at;
        for (let i = 0; i < 4; i++) {
          const next = nextFiring(e.cron, timezone, new Date(after)).getTime();
          expect(next).toBeGreaterThan(after);
          expect(next % MINUTE).toBe(0);
          if (i > 0) expect(next - after).toBeGreaterThanOrEqual(MINUTE);
          after = next;
        }
      }),
      settings,
    );
  });

  it('fires at a matching local time, at its first occurrence, or at the end of a gap that held one', () => {
    fc.assert(
      fc.property(scenario(), ({ timezone, e, at }) => {
        fc.pre(valid(e, timezone));
        const zone = IANAZone.create(timezone);
        let after = at;
        for (let i = 0; i < 4; i++) {
          const next = nextFiring(e.cron, timezone, new Date(after)).getTime();
          const wall = wallOf(next, zone);
          if (matches(e, wall)) {
            // No earlier instant shows the same local time.
            for (const back of [30 * MINUTE, HOUR, 2 * HOUR])
              expect(wallOf(next - back, zone)).not.toBe(wall);
          } else {
            const before = wallOf(next - MINUTE, zone);
            expect(wall - before).toBeGreaterThan(MINUTE);
            expect(range(before + MINUTE, wall - MINUTE, MINUTE).some((w) => matches(e, w))).toBe(true);
          }
          after = next;
        }
      }),
      settings,
    );
  });

  it('skips no firing: the same as stepping through every minute', () => {
    fc.assert(
      fc.property(scenario(), ({ timezone, e, at }) => {
        fc.pre(valid(e, timezone));
        const next = nextFiring(e.cron, timezone, new Date(at)).getTime();
        fc.pre(next - at <= 2 * DAY);
        expect(bruteNext(e, timezone, at, next)).toBe(next);
      }),
      settings,
    );
  });

  it('skips no firing of */n schedules near changes of the clock', () => {
    const everyN = fc
      .integer({ min: 1, max: 30 })
      .map((n): Field => ({ text: n === 1 ? '*' : `*/${n}`, values: new Set(range(0, 59, n)) }));
    fc.assert(
      fc.property(scenario(everyN), ({ timezone, e, at }) => {
        fc.pre(valid(e, timezone));
        let after = at;
        for (let i = 0; i < 3; i++) {
          const next = nextFiring(e.cron, timezone, new Date(after)).getTime();
          if (next - after > 2 * DAY) return;
          expect(bruteNext(e, timezone, after, next)).toBe(next);
          after = next;
        }
      }),
      settings,
    );
  });

  it('agrees with croner’s own walk in the zone away from changes of the clock', () => {
    fc.assert(
      fc.property(scenario(), ({ timezone, e, at }) => {
        fc.pre(valid(e, timezone));
        const next = nextFiring(e.cron, timezone, new Date(at)).getTime();
        const changes = TRANSITIONS.get(timezone) ?? [];
        fc.pre(!changes.some((t) => t > at - DAY && t < next + DAY));
        const domAndDow = e.dom.text.startsWith('*') || e.dow.text.startsWith('*');
        const croner = new Cron(e.cron, { timezone, mode: '5-part', domAndDow }).nextRun(new Date(at));
        expect(croner?.getTime()).toBe(next);
      }),
      settings,
    );
  });
});

describe('dueFiring, properties', () => {
  it('gives the latest firing after `since`, at or before `now`, at most an hour old, or null', () => {
    fc.assert(
      fc.property(scenario(), fc.integer({ min: -HOUR, max: 6 * HOUR }), ({ timezone, e, at: now }, back) => {
        fc.pre(valid(e, timezone));
        const since = now - back;
        const due = dueFiring(e.cron, timezone, new Date(since), new Date(now))?.getTime() ?? null;
        const from = Math.max(since, now - HOUR - 1);
        if (due === null) {
          expect(nextFiring(e.cron, timezone, new Date(from)).getTime()).toBeGreaterThan(now);
          return;
        }
        expect(due).toBeLessThanOrEqual(now);
        expect(due).toBeGreaterThan(since);
        expect(now - due).toBeLessThanOrEqual(HOUR);
        expect(nextFiring(e.cron, timezone, new Date(due - 1)).getTime()).toBe(due);
        expect(nextFiring(e.cron, timezone, new Date(due)).getTime()).toBeGreaterThan(now);
      }),
      settings,
    );
  });
});

describe('checkDuration and resumeAfter', () => {
  it('takes 1 second to 365 days', () => {
    for (const iso of [
      'PT1S',
      'PT2H',
      'PT1M',
      'P3D',
      'P1DT12H',
      'PT0.5H',
      'P1W',
      'P52W',
      'P365D',
      'PT1,5S',
    ]) {
      expect(checkDuration(iso), iso).toBeNull();
    }
  });

  it('refuses shorter, longer and negative durations', () => {
    expect(checkDuration('PT0.5S')).toBe('for "PT0.5S" is shorter than 1 second');
    expect(checkDuration('P0D')).toBe('for "P0D" is shorter than 1 second');
    expect(checkDuration('P366D')).toBe('for "P366D" is longer than 365 days');
    expect(checkDuration('P53W')).toBe('for "P53W" is longer than 365 days');
    expect(checkDuration('PT8761H')).toBe('for "PT8761H" is longer than 365 days');
    expect(checkDuration('P99999999999999999999D')).toBe(
      'for "P99999999999999999999D" is longer than 365 days',
    );
    expect(checkDuration('PT-1S')).toBe('for "PT-1S" must not be negative');
    expect(checkDuration('P1DT-1H')).toBe('for "P1DT-1H" must not be negative');
  });

  it('refuses months and years, whose length depends on the start', () => {
    for (const iso of ['P1Y', 'P1M', 'P1Y2M', 'P0.5M', 'P1MT1H']) {
      expect(checkDuration(iso), iso).toBe(
        `for "${iso}" counts months or years, which have no fixed length: give weeks or days (P4W, P30D)`,
      );
    }
  });

  it('refuses what is not an ISO 8601 duration', () => {
    for (const iso of ['garbage', '', 'P', 'PT', 'pt2h', '2 hours', 'PT2H ', '7200']) {
      expect(checkDuration(iso), iso).toBe(
        `for "${iso}" is not an ISO 8601 duration such as PT2H, P3D or P1DT12H`,
      );
    }
  });

  it('adds the duration to the start, a day being 24 hours whatever the clocks do', () => {
    const from = new Date('2026-03-28T12:00:00.250Z');
    expect(resumeAfter('PT2H', from).toISOString()).toBe('2026-03-28T14:00:00.250Z');
    expect(resumeAfter('P1D', from).toISOString()).toBe('2026-03-29T12:00:00.250Z');
    expect(resumeAfter('P1W', from).toISOString()).toBe('2026-04-04T12:00:00.250Z');
    expect(resumeAfter('PT1.5S', from).toISOString()).toBe('2026-03-28T12:00:01.750Z');
    expect(() => resumeAfter('P1M', from)).toThrow(/months/);
  });
});

describe('resumeUntil and checkDelayUntil', () => {
  const now = new Date('2026-11-27T10:00:00Z');
  const resume = (until: string, at?: string, timezone?: string) => {
    const result = resumeUntil(until, at, timezone, now);
    return 'resumeAt' in result ? result.resumeAt.toISOString() : result;
  };

  it('takes an instant with Z or an offset', () => {
    expect(resume('2026-12-01T08:00:00Z')).toBe('2026-12-01T08:00:00.000Z');
    expect(resume('2026-12-01T09:00:00+01:00')).toBe('2026-12-01T08:00:00.000Z');
    expect(resume('2026-12-01T09:00+0100')).toBe('2026-12-01T08:00:00.000Z');
    expect(resume('2026-12-01T08:00:00.5Z')).toBe('2026-12-01T08:00:00.500Z');
    expect(resume(' 2026-12-01T08:00:00Z ')).toBe('2026-12-01T08:00:00.000Z');
  });

  it('refuses an instant without an offset, saying what to add', () => {
    expect(resume('2026-12-01T08:00:00')).toEqual({
      error:
        'until "2026-12-01T08:00:00" has no offset: add Z (UTC) or an offset such as +01:00, or give a date (YYYY-MM-DD) with at and timezone',
    });
  });

  it('refuses at and timezone beside an instant', () => {
    expect(resume('2026-12-01T08:00:00Z', '09:00')).toEqual({
      error:
        'until "2026-12-01T08:00:00Z" is an instant with its offset: at and timezone go only with a date (YYYY-MM-DD)',
    });
    expect(resume('2026-12-01T08:00:00Z', undefined, 'Europe/Berlin')).toMatchObject({
      error: /go only with a date/,
    });
  });

  it('reads a date at `at` in `timezone`, by default at midnight UTC', () => {
    expect(resume('2026-12-01')).toBe('2026-12-01T00:00:00.000Z');
    expect(resume('2026-12-01', '09:00')).toBe('2026-12-01T09:00:00.000Z');
    expect(resume('2026-12-01', '09:00', 'Europe/Berlin')).toBe('2026-12-01T08:00:00.000Z');
    expect(resume('2026-12-01', undefined, 'America/New_York')).toBe('2026-12-01T05:00:00.000Z');
  });

  it('moves a skipped local time to the end of its gap and reads a repeated one at its first occurrence', () => {
    const later = new Date('2026-01-01T00:00:00Z');
    const at = (until: string, time: string, zone: string) => {
      const result = resumeUntil(until, time, zone, later);
      return 'resumeAt' in result ? result.resumeAt.toISOString() : result.error;
    };
    expect(at('2026-03-29', '02:30', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
    expect(at('2026-10-25', '02:30', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    expect(at('2026-03-08', '02:30', 'America/New_York')).toBe('2026-03-08T07:00:00.000Z');
    expect(at('2026-11-01', '01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
  });

  it('gives `now` for a moment already past', () => {
    expect(resume('2026-11-27T09:00:00Z')).toBe(now.toISOString());
    expect(resume('2020-01-01')).toBe(now.toISOString());
  });

  it('refuses a moment more than 366 days ahead', () => {
    expect(resume('2027-11-28T10:00:00Z')).toBe('2027-11-28T10:00:00.000Z');
    expect(resume('2027-11-28T10:00:01Z')).toEqual({
      error: 'until "2027-11-28T10:00:01Z" is more than 366 days away',
    });
    expect(resume('2030-01-01')).toEqual({ error: 'until "2030-01-01" is more than 366 days away' });
  });

  it('refuses dates not in the calendar, bad times and zones, and other shapes', () => {
    expect(resume('2026-02-30')).toEqual({ error: 'until "2026-02-30" is not a date of the calendar' });
    expect(resume('2026-02-30T08:00:00Z')).toEqual({
      error: 'until "2026-02-30T08:00:00Z" is not a date and time of the calendar',
    });
    for (const at of ['9:00', '24:00', '12:60', '09:00:00', '']) {
      expect(resume('2026-12-01', at), at).toEqual({
        error: `at "${at}" must be a time HH:MM, from 00:00 to 23:59`,
      });
    }
    expect(resume('2026-12-01', '09:00', 'CET')).toEqual({
      error: 'timezone "CET" is not an IANA time zone (such as Europe/Berlin, America/New_York or UTC)',
    });
    for (const until of [
      'tomorrow',
      '2026-12-01 08:00:00Z',
      '01/12/2026',
      '2026-12-01T24:00:00Z',
      '20261201',
    ]) {
      expect(resume(until), until).toEqual({
        error: `until "${until}" must be an instant with its offset (2026-12-01T08:00:00Z, 2026-12-01T09:00:00+01:00) or a date (2026-12-01)`,
      });
    }
  });

  it('checks literal values when saved, and leaves templates to the run, but not at and timezone', () => {
    expect(checkDelayUntil('2026-12-01', '09:00', 'Europe/Berlin')).toBeNull();
    expect(checkDelayUntil('2026-12-01T08:00:00Z', undefined, undefined)).toBeNull();
    // How far ahead is judged when the step runs.
    expect(checkDelayUntil('2030-01-01', undefined, undefined)).toBeNull();
    expect(checkDelayUntil('2026-12-01T08:00:00', undefined, undefined)).toMatch(/has no offset/);
    expect(checkDelayUntil('2026-12-01T08:00:00Z', '09:00', undefined)).toMatch(/go only with a date/);
    expect(checkDelayUntil('{{ trigger.body.date }}', '09:00', 'Europe/Berlin')).toBeNull();
    expect(checkDelayUntil('[[ trigger.body.date ]]T09:00:00Z', undefined, undefined)).toBeNull();
    expect(checkDelayUntil('{{ trigger.body.date }}', '9am', undefined)).toBe(
      'at "9am" must be a time HH:MM, from 00:00 to 23:59',
    );
    expect(checkDelayUntil('{{ trigger.body.date }}', undefined, 'EST')).toMatch(/^timezone "EST"/);
  });
});
