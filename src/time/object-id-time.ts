import { ObjectId, isObjectIdLike, type ObjectIdLike, parseObjectId } from '../core/index.js';

/** Largest timestamp (in seconds) the 4-byte field can hold: 2106-02-07T06:28:15Z. */
export const MAX_OBJECT_ID_SECONDS = 0xffffffff;

/** A `_id` filter for a half-open time range: `{ _id: objectIdRange(from, to) }`. */
export interface ObjectIdRange {
  $gte: ObjectId;
  $lt: ObjectId;
}

/** The parts of an ObjectId, as `decodeObjectId()` returns them. */
export interface DecodedObjectId {
  /** The id as 24 lowercase hex characters. */
  hex: string;
  /** Bytes 0-3: seconds since the Unix epoch. */
  timestamp: number;
  /** The timestamp as a Date (whole seconds). */
  date: Date;
  /** Bytes 4-8: the random value chosen once per process, as 10 hex characters. */
  processUnique: string;
  /** Bytes 9-11: the counter, 0..16,777,215. */
  counter: number;
}

/**
 * The smallest ObjectId of the second that contains `date` (process-unique part
 * and counter are zero), for range filters on `_id`.
 * `date` is a Date or **milliseconds** since the epoch (as `Date.now()` gives);
 * passing seconds by mistake yields a date in January 1970, never a silent
 * wrong range in the future. Throws a RangeError for NaN or dates outside
 * 1970-01-01T00:00:00Z .. 2106-02-07T06:28:15Z, which 4 bytes cannot hold.
 */
export function objectIdFromDate(date: Date | number): ObjectId {
  return ObjectId.createFromTime(toSeconds(date, 'floor', 'date'));
}

/**
 * `{ $gte, $lt }` bounds of `_id` for documents created in `[from, to)`.
 * ObjectIds carry whole seconds, so a bound with milliseconds is rounded
 * outwards (`from` down, `to` up) and a document of a partly covered second is
 * included.
 */
export function objectIdRange(from: Date | number, to: Date | number): ObjectIdRange {
  const fromSeconds = toSeconds(from, 'floor', 'from');
  const toSecondsValue = toSeconds(to, 'ceil', 'to');
  if (toSecondsValue < fromSeconds) {
    throw new RangeError(
      `objectIdRange: "to" (${new Date(to).toISOString()}) is before "from" (${new Date(from).toISOString()}); swap them`,
    );
  }
  return {
    $gte: ObjectId.createFromTime(fromSeconds),
    $lt: ObjectId.createFromTime(toSecondsValue),
  };
}

/**
 * Start and end instants of the calendar day containing `day` in `timeZone`.
 * `day` is a Date (the day it falls on in that zone) or a `YYYY-MM-DD` string.
 * Days with a daylight-saving change are 23 or 25 hours long.
 */
export function dayBounds(day: Date | string, timeZone = 'UTC'): { from: Date; to: Date } {
  const { year, month, date } = calendarDay(day, timeZone);
  return {
    from: new Date(startOfLocalDay(year, month, date, timeZone)),
    to: new Date(startOfLocalDay(year, month, date + 1, timeZone)),
  };
}

/**
 * `{ $gte, $lt }` bounds of `_id` for the documents of one calendar day in
 * `timeZone` (default UTC): read straight from the `_id` index, no `createdAt` needed.
 * @example Product.find({ _id: dayRange('2026-12-02', 'Europe/Prague') })
 */
export function dayRange(day: Date | string, timeZone = 'UTC'): ObjectIdRange {
  const { from, to } = dayBounds(day, timeZone);
  return objectIdRange(from, to);
}

/** Splits an ObjectId (or its hex) into timestamp, process-unique value and counter. */
export function decodeObjectId(id: string | ObjectIdLike): DecodedObjectId {
  const hex = parseObjectId(isObjectIdLike(id) ? id.toHexString() : id).toHexString();
  const timestamp = Number.parseInt(hex.slice(0, 8), 16);
  return {
    hex,
    timestamp,
    date: new Date(timestamp * 1000),
    processUnique: hex.slice(8, 18),
    counter: Number.parseInt(hex.slice(18), 16),
  };
}

/** Largest batch `generateObjectIds()` makes at once. */
export const MAX_GENERATED_OBJECT_IDS = 1000;

/**
 * Makes `count` (1..1000) new ObjectIds at once, as the driver does on insert:
 * they share this process's random value and have consecutive counters.
 */
export function generateObjectIds(count: number): ObjectId[] {
  if (!Number.isInteger(count) || count < 1 || count > MAX_GENERATED_OBJECT_IDS) {
    throw new RangeError(
      `generateObjectIds: count must be an integer from 1 to ${MAX_GENERATED_OBJECT_IDS}, received ${String(count)}`,
    );
  }
  // A synchronous loop: nothing else in this process can take a counter value in between.
  return Array.from({ length: count }, () => new ObjectId());
}

/**
 * A new, **unique** ObjectId that carries `date` (whole seconds) instead of now,
 * for imports and backfills: like the driver's `ObjectId.generate(time)` and Go's
 * `NewObjectIDFromTimestamp`, it takes this process's random value and the next
 * value of the counter every `new ObjectId()` of this process shares, so two ids
 * for the same second differ. (`objectIdFromDate()` is the other thing: the
 * smallest id of a second, with a zero tail, for range bounds — never for a document.)
 *
 * `date` is a Date or milliseconds since the epoch; milliseconds are dropped.
 * Throws a RangeError for an invalid Date, NaN, or an instant outside
 * 1970-01-01T00:00:00Z .. 2106-02-07T06:28:15Z (4 unsigned bytes of seconds),
 * which bson itself would silently wrap around.
 */
export function generateObjectIdAt(date: Date | number): ObjectId {
  return new ObjectId(ObjectId.generate(toSeconds(date, 'floor', 'generateObjectIdAt: date')));
}

function toSeconds(input: Date | number, rounding: 'floor' | 'ceil', label: string): number {
  const ms = input instanceof Date ? input.getTime() : input;
  if (typeof ms !== 'number' || Number.isNaN(ms)) {
    throw new RangeError(`${label} is not a valid date; pass a Date or milliseconds since the epoch`);
  }
  const seconds = rounding === 'floor' ? Math.floor(ms / 1000) : Math.ceil(ms / 1000);
  if (seconds < 0 || seconds > MAX_OBJECT_ID_SECONDS) {
    throw new RangeError(
      `${label} ${Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms)} is outside the ObjectId time range ` +
        '1970-01-01T00:00:00Z .. 2106-02-07T06:28:15Z (note: numbers are milliseconds, not seconds)',
    );
  }
  return seconds;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new RangeError(`Unknown time zone "${timeZone}"; use an IANA name such as "UTC" or "Europe/Prague"`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Wall-clock fields of instant `ms` in `timeZone`. */
export function zonedParts(
  ms: number,
  timeZone: string,
): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

function calendarDay(day: Date | string, timeZone: string): { year: number; month: number; date: number } {
  if (typeof day === 'string') {
    formatterFor(timeZone); // validates the zone even for string days
    const match = DAY.exec(day);
    const probe = match ? new Date(utc(+match[1], +match[2] - 1, +match[3])) : undefined;
    if (!match || !probe || probe.getUTCDate() !== +match[3] || probe.getUTCMonth() !== +match[2] - 1) {
      throw new RangeError(`"${day.slice(0, 32)}" is not a calendar day; expected YYYY-MM-DD, e.g. 2026-12-02`);
    }
    return { year: +match[1], month: +match[2], date: +match[3] };
  }
  if (Number.isNaN(day.getTime())) {
    throw new RangeError('day is an invalid Date');
  }
  const parts = zonedParts(day.getTime(), timeZone);
  return { year: parts.year, month: parts.month, date: parts.day };
}

/**
 * `Date.UTC` for every year: `Date.UTC` reads years 0–99 as 1900–1999, which
 * would turn the day 0099-12-31 into 1999-12-31.
 */
function utc(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hours, minutes, seconds, 0);
  return date.getTime();
}

/** Offset of `timeZone` from UTC at instant `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  const asUtc = utc(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The first instant of local day `year-month-date` in `timeZone` (date may overflow to the next month). */
function startOfLocalDay(year: number, month: number, date: number, timeZone: string): number {
  const wallClock = utc(year, month - 1, date);
  const target = new Date(wallClock);
  // The offset at local midnight may differ from the one at UTC midnight (DST
  // changes), so try both; where midnight itself is skipped (e.g.
  // America/Santiago), the day starts at the first instant that lies in it.
  const first = wallClock - offsetAt(wallClock, timeZone);
  const second = wallClock - offsetAt(first, timeZone);
  const inTargetDay = [first, second]
    .filter((instant) => {
      const p = zonedParts(instant, timeZone);
      return (
        p.year === target.getUTCFullYear() && p.month === target.getUTCMonth() + 1 && p.day === target.getUTCDate()
      );
    })
    .sort((a, b) => a - b);
  return inTargetDay[0] ?? Math.max(first, second);
}
