import { Cron, CronPattern } from 'croner';
import { DateTime, Duration, IANAZone } from 'luxon';
import { missing } from '../shared/missing.ts';
import { hasTemplate } from './templates.ts';

/**
 * Time for workflows, without a database: when a SCHEDULE trigger fires and when a DELAY step
 * resumes. Instants go in and out as `Date`s (UTC); a local time is read in an IANA time zone.
 * croner reads cron expressions, luxon time zones and ISO 8601 durations.
 *
 * One rule for local times, shared by schedules and delays: a local time the zone skips
 * (spring forward) happens at the first minute after the gap (02:30 on the day Berlin moves
 * from 02:00 to 03:00 is 03:00), and a local time that happens twice (fall back) happens once,
 * at its first occurrence. Neither croner nor luxon applies this rule by itself: croner skips
 * a skipped time unless the job has one fixed minute and hour, and fires both occurrences of
 * a repeated time unless it has; luxon moves a skipped time forward by the length of the gap
 * (02:30 → 03:30) and reads a repeated time as its second occurrence.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ── Time zones ────────────────────────────────────────────────────────────────────────────

/** The areas of IANA's geographic names (Area/Location), as in tzdb's zone1970.tab. */
const ZONE_NAME =
  /^(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)(?:\/[A-Z][\w+-]*)+$/;

/**
 * True for `UTC` and IANA's Area/Location names that this runtime knows, spelled as in the
 * list (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, older names such as `Asia/Calcutta`
 * too). Anything else is refused even where luxon (through Intl) would take it: fixed offsets
 * (`+01:00`, `Etc/GMT-1`, whose sign is reversed), abbreviations (`CET`, `EST`, which Intl
 * quietly turns into Europe/Brussels and America/Panama), `US/Eastern`, `GMT`, and other
 * casings (`europe/berlin`): a stored zone is one of the names people look up.
 */
export function isTimeZone(name: string): boolean {
  return name === 'UTC' || (ZONE_NAME.test(name) && IANAZone.isValidZone(name));
}

const zoneProblem = (name: string) =>
  `timezone "${name}" is not an IANA time zone (such as Europe/Berlin, America/New_York or UTC)`;

/** A time on a wall clock, without a zone: month 1–12, hour 0–23. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/**
 * The instant `local` names in `timezone` (`isTimeZone`), by the rule above: a skipped time
 * is the first minute after the gap, a repeated time its first occurrence.
 */
export function instantOfLocalTime(local: LocalTime, timezone: string): Date {
  const zone = IANAZone.create(timezone);
  if (!zone.isValid) throw new Error(zoneProblem(timezone));
  // Not Date.UTC, which reads the years 0–99 as 1900–1999.
  const wall = DateTime.fromObject({ ...local }, { zone: 'UTC' });
  if (!wall.isValid) throw new Error(`Not a local time: ${JSON.stringify(local)}`);
  return new Date(instantOfWall(wall.toMillis(), zone));
}

/**
 * `wall` is the local time written as if it were UTC. An instant t shows it when
 * t + offset(t) = wall; the offsets a day either side cover every transition near it.
 */
function instantOfWall(wall: number, zone: IANAZone): number {
  const offsetBefore = zone.offset(wall - DAY) * MINUTE;
  const offsetAfter = zone.offset(wall + DAY) * MINUTE;
  const shown = [wall - offsetBefore, wall - offsetAfter].filter((t) => zone.offset(t) * MINUTE === wall - t);
  if (shown.length > 0) return Math.min(...shown);
  // In a gap: the zone jumps from offsetBefore to offsetAfter between these two instants.
  let lo = wall - offsetAfter;
  let hi = wall - offsetBefore;
  const before = zone.offset(lo);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zone.offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return Math.ceil(hi / MINUTE) * MINUTE;
}

const wallOf = (instant: number, zone: IANAZone) => instant + zone.offset(instant) * MINUTE;

// ── SCHEDULE triggers ─────────────────────────────────────────────────────────────────────

interface CronField {
  name: string;
  min: number;
  max: number;
  /** Names standing for min, min + 1, …, compared without case. */
  names?: readonly string[];
}

const CRON_FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'day-of-week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const FIELD_COUNT = 'cron must have 5 fields (minute hour day-of-month month day-of-week)';
/** One item of a list: `*`, a value or a range, each with an optional step. */
const CRON_ITEM = /^(?:\*|([a-z\d]+)(?:-([a-z\d]+))?)(?:\/\d+)?$/i;

/**
 * What croner's syntax has beyond standard cron is refused here, before croner reads the
 * field: `L`, `W`, `#`, `?` and the `+` that turns the day rule into AND. This also gives
 * plain messages for values out of range (croner reports a day of 32 as "day: 31").
 */
function cronFieldProblem(text: string, field: CronField): string | null {
  const shape = `cron ${field.name} "${text}" must be a number, *, a range (1-5), a list (1,3,5) or a step (*/15)`;
  for (const item of text.split(',')) {
    const match = CRON_ITEM.exec(item);
    if (!match) {
      const names = field.names;
      return names
        ? `${shape}, or a name (${names[0]?.toUpperCase()}-${names.at(-1)?.toUpperCase()})`
        : shape;
    }
    for (const value of [match[1], match[2]]) {
      if (value === undefined) continue;
      const named = field.names?.indexOf(value.toLowerCase()) ?? -1;
      const n = /^\d+$/.test(value) ? Number(value) : named >= 0 ? field.min + named : null;
      if (n === null)
        return `cron ${field.name} "${value}" is not a number${field.names ? ' or a name' : ''}`;
      if (n < field.min || n > field.max) {
        return `cron ${field.name} ${value} is out of range (${field.min}-${field.max})`;
      }
    }
  }
  return null;
}

/** A schedule ready to walk: the pattern on a clock without DST, and the zone. */
interface Schedule {
  wallClock: Cron;
  zone: IANAZone;
}

function readSchedule(cron: string, timezone: string): Schedule | string {
  let text = cron.trim();
  if (text.startsWith('@')) {
    try {
      text = new CronPattern(text, undefined, { mode: '5-part' }).pattern;
    } catch {
      return `cron "${cron}" is not a known nickname (@hourly, @daily, @midnight, @weekly, @monthly, @yearly, @annually)`;
    }
  }
  const fields = text === '' ? [] : text.split(/\s+/);
  if (fields.length !== CRON_FIELDS.length) return `${FIELD_COUNT}, not ${fields.length}`;
  for (const [i, field] of CRON_FIELDS.entries()) {
    const problem = cronFieldProblem(fields[i] ?? missing(`cron field ${i}`), field);
    if (problem) return problem;
  }
  if (!isTimeZone(timezone)) return zoneProblem(timezone);
  // Vixie cron's day rule (entry.c): when day-of-month and day-of-week are both restricted, a
  // day matching either one runs; a field counts as unrestricted when it starts with `*`
  // (so `*/2` too), and then a day must match both. croner's default (OR) treats only a bare
  // `*` as unrestricted, so the rule is chosen per expression.
  const domAndDow = [fields[2], fields[4]].some((field) => field?.startsWith('*'));
  try {
    // utcOffset 0: croner walks the local wall clock as if it were UTC, where no hour is
    // skipped or repeated; instantOfWall then places each match by the rule of this file.
    const wallClock = new Cron(text, { utcOffset: 0, mode: '5-part', domAndDow });
    return { wallClock, zone: IANAZone.create(timezone) };
  } catch (error) {
    return `cron "${cron}" is not valid: ${String((error as Error).message).replace(/^CronPattern: /, '')}`;
  }
}

/**
 * Null when a SCHEDULE trigger's `cron` and `timezone` are usable, else the problem for a 400;
 * a problem with the zone starts with "timezone", any other with "cron".
 *
 * `cron` has exactly the 5 standard fields, so a schedule fires at most once a minute: `*`,
 * numbers, ranges (`1-5`), lists (`1,15`), steps (`*\/15`, `8-18/2`), names (`JAN`, `MON`),
 * and 0 or 7 for Sunday. croner's nicknames are taken (`@hourly` is `0 * * * *`, `@daily` and
 * `@midnight` `0 0 * * *`, `@weekly` `0 0 * * 0`, `@monthly` `0 0 1 * *`, `@yearly` and
 * `@annually` `0 0 1 1 *`); its other extensions (seconds and years fields, `L`, `W`, `#`,
 * `?`, `+`) are not, so an expression means what it means to any cron. An expression no
 * date ever matches (`0 0 31 2 *`) is refused.
 */
export function checkSchedule(cron: string, timezone: string): string | null {
  const schedule = readSchedule(cron, timezone);
  if (typeof schedule === 'string') return schedule;
  // The pattern has no year, so it repeats with the 400-year Gregorian cycle, which croner
  // searches before it gives up.
  if (schedule.wallClock.nextRun(new Date(Date.UTC(2000, 0, 1))) === null) {
    return `cron "${cron}" never fires: no date matches its day-of-month, month and day-of-week`;
  }
  return null;
}

function scheduleOf(cron: string, timezone: string): Schedule {
  const schedule = readSchedule(cron, timezone);
  if (typeof schedule === 'string') throw new Error(schedule);
  return schedule;
}

/**
 * The firings after `after` (an instant, in ms), in order. Every local time the pattern
 * matches fires once, at instantOfWall's instant; several skipped times fire together at
 * the end of their gap, and the second pass of a repeated hour fires nothing.
 */
function* firingsAfter(schedule: Schedule, after: number): Generator<number> {
  // Local times before the wall clock of `after` fire at or before `after` (instantOfWall
  // never goes back as the wall clock goes on), so the walk starts there.
  let wall = new Date(wallOf(after, schedule.zone));
  let last = after;
  for (;;) {
    wall = schedule.wallClock.nextRun(wall) ?? missing('a next firing of a schedule checkSchedule accepted');
    const at = instantOfWall(wall.getTime(), schedule.zone);
    if (at > last) {
      last = at;
      yield at;
    }
  }
}

/**
 * The first firing of a schedule (`checkSchedule` accepted it; else this throws) strictly
 * after `after`. Local times follow the rule at the top of this file: 02:30 on a day that
 * skips it fires at 03:00, and once on a day that has it twice. Each local minute fires once,
 * so `* * * * *` does not fire again during the second pass of a repeated hour, and the
 * minutes of a skipped hour fire once, together, when it ends. Firings are whole minutes,
 * each later than the one before.
 */
export function nextFiring(cron: string, timezone: string, after: Date): Date {
  const [first] = firingsAfter(scheduleOf(cron, timezone), after.getTime());
  return new Date(first ?? missing('a next firing'));
}

/** How late a missed firing may still run. */
const DUE_FOR = HOUR;

/**
 * What a scheduler should fire at `now`: the latest firing after `since` and at or before
 * `now`, if it is at most an hour old (`now - firing <= 1 h`); else null. After downtime the
 * missed firings are not caught up: only the latest runs, and only if it is recent.
 *
 * `since` is the firing the schedule last ran for, or, for a schedule that has not fired
 * yet, the instant it was created or enabled, so that nothing before that runs. A firing at
 * or before `since` never runs (again).
 */
export function dueFiring(cron: string, timezone: string, since: Date, now: Date): Date | null {
  const from = Math.max(since.getTime(), now.getTime() - DUE_FOR - 1);
  let due: number | null = null;
  for (const at of firingsAfter(scheduleOf(cron, timezone), from)) {
    if (at > now.getTime()) break;
    due = at;
  }
  return due === null ? null : new Date(due);
}

// ── DELAY steps ───────────────────────────────────────────────────────────────────────────

const MIN_DELAY = 1000;
const MAX_DELAY = 365 * DAY;
/** How far ahead `until` may be: the same date next year, a leap day included. */
const MAX_UNTIL = 366 * DAY;

function delayMs(iso: string): number | string {
  const duration = Duration.fromISO(iso);
  const units = duration.isValid ? Object.values(duration.toObject()) : [];
  if (units.length === 0) return `for "${iso}" is not an ISO 8601 duration such as PT2H, P3D or P1DT12H`;
  if (duration.years !== 0 || duration.months !== 0) {
    return `for "${iso}" counts months or years, which have no fixed length: give weeks or days (P4W, P30D)`;
  }
  if (units.some((n) => n < 0)) return `for "${iso}" must not be negative`;
  const ms = duration.toMillis();
  if (ms < MIN_DELAY) return `for "${iso}" is shorter than 1 second`;
  if (ms > MAX_DELAY) return `for "${iso}" is longer than 365 days`;
  return ms;
}

/**
 * Null when `iso` is an ISO 8601 duration of 1 second to 365 days (`PT2H`, `P3D`, `P1W`,
 * `PT0.5H`), else the problem. A day is 24 hours and a week 7 days, whatever the clocks do;
 * months and years (`P1M`, `P1Y`) are refused, as their length depends on the start.
 */
export function checkDuration(iso: string): string | null {
  const ms = delayMs(iso);
  return typeof ms === 'string' ? ms : null;
}

/** When a `{ for }` delay that starts at `from` ends; `iso` passed checkDuration, else this throws. */
export function resumeAfter(iso: string, from: Date): Date {
  const ms = delayMs(iso);
  if (typeof ms === 'string') throw new Error(ms);
  return new Date(from.getTime() + Math.round(ms));
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const AT = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** A date and time, with its offset in group 1 when there is one. */
const DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d+)?)?(Z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?$/i;

function atOrZoneProblem(at: string | undefined, timezone: string | undefined): string | null {
  if (at !== undefined && !AT.test(at)) return `at "${at}" must be a time HH:MM, from 00:00 to 23:59`;
  return timezone !== undefined && !isTimeZone(timezone) ? zoneProblem(timezone) : null;
}

/** The instant `until` (with `at` and `timezone`) names, or the problem; no bound on it. */
function untilInstant(until: string, at: string | undefined, timezone: string | undefined): number | string {
  const problem = atOrZoneProblem(at, timezone);
  if (problem) return problem;
  const text = until.trim();
  const date = DATE.exec(text);
  if (date) {
    const [year, month, day] = [date[1], date[2], date[3]].map(Number) as [number, number, number];
    if (!DateTime.fromObject({ year, month, day }, { zone: 'UTC' }).isValid) {
      return `until "${until}" is not a date of the calendar`;
    }
    const [hour, minute] = (at ?? '00:00').split(':').map(Number) as [number, number];
    return instantOfLocalTime({ year, month, day, hour, minute }, timezone ?? 'UTC').getTime();
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) {
    return `until "${until}" must be an instant with its offset (2026-12-01T08:00:00Z, 2026-12-01T09:00:00+01:00) or a date (2026-12-01)`;
  }
  if (dateTime[1] === undefined) {
    return `until "${until}" has no offset: add Z (UTC) or an offset such as +01:00, or give a date (YYYY-MM-DD) with at and timezone`;
  }
  if (at !== undefined || timezone !== undefined) {
    return `until "${until}" is an instant with its offset: at and timezone go only with a date (YYYY-MM-DD)`;
  }
  const instant = DateTime.fromISO(text);
  return instant.isValid ? instant.toMillis() : `until "${until}" is not a date and time of the calendar`;
}

/**
 * Null when a `{ until, at, timezone }` delay may be saved, else the problem. `until` is an
 * instant with its offset or `Z` (then without `at` and `timezone`), or a date `YYYY-MM-DD`
 * read at `at` (`HH:MM`, default 00:00) in `timezone` (IANA, default UTC). An `until` holding
 * a template (`{{ … }}`, `[[ … ]]`) is judged when the step runs; `at` and `timezone` are
 * always literal. How far ahead it is is judged when the step runs too.
 */
export function checkDelayUntil(
  until: string,
  at: string | undefined,
  timezone: string | undefined,
): string | null {
  if (hasTemplate(until)) return atOrZoneProblem(at, timezone);
  const instant = untilInstant(until, at, timezone);
  return typeof instant === 'string' ? instant : null;
}

/**
 * When a `{ until, at, timezone }` delay ends, with `until`'s templates rendered. A date's
 * local time follows the rule at the top of this file (a skipped time moves to the end of its
 * gap, a repeated one is its first occurrence). A moment already past gives `now`, so the run
 * goes on at once; one more than 366 days after `now` is an error.
 */
export function resumeUntil(
  until: string,
  at: string | undefined,
  timezone: string | undefined,
  now: Date,
): { resumeAt: Date } | { error: string } {
  const instant = untilInstant(until, at, timezone);
  if (typeof instant === 'string') return { error: instant };
  if (instant - now.getTime() > MAX_UNTIL) return { error: `until "${until}" is more than 366 days away` };
  return { resumeAt: new Date(Math.max(instant, now.getTime())) };
}
