/**
 * Time zones as mongod's date expressions take them (date_time_support.cpp):
 * an Olson identifier, or a UTC offset written `±HH`, `±HHMM` or `±HH:MM`.
 * Olson zones come from the ICU data Node carries, through `Intl`; their
 * offsets keep their seconds (Caracas was -04:27:40 in 1900), as timelib's.
 * Dates are milliseconds since the epoch, calendar fields are the proleptic
 * Gregorian calendar's, as timelib counts them.
 */
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';

const MS_PER_DAY = 86_400_000;

/** A date's calendar fields in a time zone. */
export interface LocalTime {
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  /** 1–31. */
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  /** The zone's offset from UTC at that date, in seconds. */
  readonly offset: number;
}

/** Days from 1970-01-01 to `year`-`month`-`day` (any integers: month 13 is next January, day 0 the last of the month before). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const m0 = month - 1;
  const y = year + Math.floor(m0 / 12);
  const m = m0 - 12 * Math.floor(m0 / 12) + 1;
  // Howard Hinnant's days_from_civil: a year that starts in March puts the leap day last.
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The calendar date `days` after 1970-01-01. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** 1 for January 1st, as `$dayOfYear` counts. */
export function dayOfYear(year: number, month: number, day: number): number {
  return daysFromCivil(year, month, day) - daysFromCivil(year, 1, 1) + 1;
}

/** 1 for Monday … 7 for Sunday. */
export function isoDayOfWeek(year: number, month: number, day: number): number {
  // 1970-01-01 was a Thursday (4).
  return ((((daysFromCivil(year, month, day) + 3) % 7) + 7) % 7) + 1;
}

/** The ISO 8601 week-numbering year and week of a calendar date. */
export function isoWeekOf(year: number, month: number, day: number): { isoYear: number; isoWeek: number } {
  // The week belongs to the year of its Thursday.
  const days = daysFromCivil(year, month, day);
  const thursday = days - isoDayOfWeek(year, month, day) + 4;
  const isoYear = civilFromDays(thursday).year;
  return { isoYear, isoWeek: Math.floor((thursday - daysFromCivil(isoYear, 1, 1)) / 7) + 1 };
}

/** The calendar date of an ISO week date (timelib_date_from_isodate); fields out of range carry over. */
export function dateFromIsoWeek(isoYear: number, isoWeek: number, isoDay: number): number {
  // Monday of week 1 is the Monday on or before January 4th.
  const jan4 = daysFromCivil(isoYear, 1, 4);
  const week1Monday = jan4 - (isoDayOfWeek(isoYear, 1, 4) - 1);
  return week1Monday + (isoWeek - 1) * 7 + (isoDay - 1);
}

/** A zone's offset, in seconds, at a date. */
type OffsetAt = (ms: number) => number;

/** Formatters by Olson name: building one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(name: string): Intl.DateTimeFormat | undefined {
  let formatter = formatters.get(name);
  if (formatter) return formatter;
  try {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' });
  } catch {
    return undefined;
  }
  formatters.set(name, formatter);
  return formatter;
}

/** The offset of `formatter`'s zone at `ms`, from its `GMT±hh:mm[:ss]` name. */
function olsonOffset(formatter: Intl.DateTimeFormat, ms: number): number {
  // Intl formats dates within ±8.64e15 ms only; beyond, the zone's offset at that bound.
  const clamped = Math.min(Math.max(ms, -8.64e15), 8.64e15);
  const name = formatter.formatToParts(clamped).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d\d):(\d\d)(?::(\d\d))?$/.exec(name);
  if (!match) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4] ?? 0);
  return match[1] === '-' ? -seconds : seconds;
}

/** The most zones, and days of one zone, kept. */
const MAX_CACHED = 10_000;

/** Olson zones by name, each with its cache of offsets. */
const olsonZones = new Map<string, TimeZone>();

/**
 * A zone's offsets, read from ICU once per day of dates asked about: a day
 * whose first and last milliseconds have one offset has it throughout (no
 * zone changes its offset and back within a day); a day with a transition is
 * read date by date. Intl costs microseconds a call, many times a date's own
 * arithmetic.
 */
function dayCachedOffsets(formatter: Intl.DateTimeFormat): OffsetAt {
  const days = new Map<number, number>();
  return (ms) => {
    const day = Math.floor(ms / MS_PER_DAY);
    const cached = days.get(day);
    if (cached !== undefined) return cached;
    const first = olsonOffset(formatter, day * MS_PER_DAY);
    if (first !== olsonOffset(formatter, day * MS_PER_DAY + MS_PER_DAY - 1)) return olsonOffset(formatter, ms);
    if (days.size >= MAX_CACHED) days.clear();
    days.set(day, first);
    return first;
  };
}

/** mongod's `parseUtcOffset`: `±HH`, `±HHMM` or `±HH:MM`, in seconds. */
function parseUtcOffset(spec: string): number | undefined {
  const match = /^([+-])(\d\d)(?::?(\d\d))?$/.exec(spec);
  if (!match || (spec.length !== 3 && spec.length !== 5 && spec.length !== 6)) return undefined;
  if (spec.length === 5 && spec[3] === ':') return undefined;
  const seconds = Number(match[2]) * 3600 + Number(match[3] ?? 0) * 60;
  return match[1] === '-' ? -seconds : seconds;
}

/** A time zone: UTC, a fixed offset, or an Olson zone whose offset varies. */
export class TimeZone {
  static readonly UTC = new TimeZone('UTC', () => 0, 'utc');

  private constructor(
    /** The identifier it was named by. */
    readonly name: string,
    private readonly offsetAt: OffsetAt,
    /** UTC itself, a fixed UTC offset, or an Olson zone. */
    readonly kind: 'utc' | 'offset' | 'olson',
  ) {}

  /**
   * The zone named `name`, as mongod's TimeZoneDatabase::getTimeZone finds
   * it; 40485 when it has none of that name.
   */
  static named(name: string): TimeZone {
    if (name === 'UTC') return TimeZone.UTC;
    const offset = parseUtcOffset(name);
    if (offset !== undefined) return new TimeZone(name, () => offset, 'offset');
    // Intl also takes offsets and lower-case names, which mongod's database does not hold.
    const formatter = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name) ? formatterOf(name) : undefined;
    if (!formatter) {
      throw new CommandError('Location40485', `unrecognized time zone identifier: "${name}"`);
    }
    let zone = olsonZones.get(name);
    if (!zone) {
      // Names come from clients: the cache is emptied rather than let grow without bound.
      if (olsonZones.size >= MAX_CACHED) olsonZones.clear();
      zone = new TimeZone(name, dayCachedOffsets(formatter), 'olson');
      olsonZones.set(name, zone);
    }
    return zone;
  }

  /** The zone's offset from UTC at `ms`, in seconds. */
  offset(ms: number): number {
    return this.offsetAt(ms);
  }

  /** `ms`'s calendar fields in this zone (timelib_unixtime2local: whole seconds shifted, milliseconds kept). */
  local(ms: number): LocalTime {
    const offset = this.offsetAt(ms);
    const shifted = ms + offset * 1000;
    const days = Math.floor(shifted / MS_PER_DAY);
    const inDay = shifted - days * MS_PER_DAY;
    const { year, month, day } = civilFromDays(days);
    return {
      year,
      month,
      day,
      hour: Math.floor(inDay / 3_600_000),
      minute: Math.floor(inDay / 60_000) % 60,
      second: Math.floor(inDay / 1000) % 60,
      millisecond: inDay % 1000,
      offset,
    };
  }

  /**
   * The date whose local time in this zone is `localMs` (milliseconds since
   * the local epoch). A local time a transition skips is read with the
   * offset before it; one a transition repeats is its first occurrence.
   */
  fromLocal(localMs: number): number {
    if (this.kind !== 'olson') return localMs - this.offsetAt(0) * 1000;
    // The offsets a day either side hold on each side of any transition near this time.
    const early = this.offsetAt(localMs - MS_PER_DAY);
    const late = this.offsetAt(localMs + MS_PER_DAY);
    for (const offset of [early, late]) {
      if (this.offsetAt(localMs - offset * 1000) === offset) return localMs - offset * 1000;
    }
    return localMs - early * 1000;
  }

  /** The date of calendar fields in this zone; fields out of range carry over, as timelib_update_ts lets them. */
  fromParts(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millisecond = 0): number {
    const days = daysFromCivil(year, month, 1) + day - 1;
    return this.fromLocal(days * MS_PER_DAY + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond);
  }
}

/**
 * The zone a `timezone` argument evaluated to: UTC when it is absent,
 * `null` when it is null (the expression then answers null), 40517 when it
 * is not a string, 40485 when no zone has that name.
 */
export function timeZoneArgument(value: unknown): TimeZone | null {
  if (value === undefined) return TimeZone.UTC;
  if (value === null) return null;
  if (typeof value !== 'string') {
    throw new CommandError('Location40517', `timezone must evaluate to a string, found ${typeAlias(value)}`);
  }
  return TimeZone.named(value);
}
