/**
 * mongod's `$dateAdd`, `$dateSubtract`, `$dateDiff` and `$dateTrunc`
 * (date_time_support.cpp's dateAdd, dateDiff and truncateDate): units of a
 * day and more count on the calendar of the time zone, smaller ones in
 * elapsed time; a month added to the 31st ends on the month's last day;
 * `$dateDiff` answers a long. mingo ignored a named time zone here.
 */
import type { Document } from 'bson';
import type { Options } from 'mingo/types';

import { CommandError } from '../commands/command-error.js';
import {
  ABSENT,
  argument,
  checkFields,
  dateMillis,
  type ExpressionOperator,
  integral64,
  MS_PER_DAY,
  optional,
  valueText,
  zoneOf,
} from './date-arguments.js';
import { daysFromCivil, daysInMonth, isoDayOfWeek, type LocalTime, TimeZone } from './date-time-zones.js';
import { typeAlias } from './element-operators.js';
import { fitsInt64, INT64_MIN } from './numeric-types.js';
import { isNullish } from './operand-lists.js';

export type TimeUnit = 'year' | 'quarter' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second' | 'millisecond';

const UNIT_MILLIS: Readonly<Record<string, number>> = {
  week: 7 * MS_PER_DAY,
  day: MS_PER_DAY,
  hour: 3_600_000,
  minute: 60_000,
  second: 1000,
  millisecond: 1,
};

const TIME_UNITS = new Set(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond']);

/** mongod's DayOfWeek: Monday 1 … Sunday 7. */
const DAYS_OF_WEEK: Readonly<Record<string, number>> = {
  ...{ monday: 1, mon: 1, tuesday: 2, tue: 2, wednesday: 3, wed: 3, thursday: 4, thu: 4 },
  ...{ friday: 5, fri: 5, saturday: 6, sat: 6, sunday: 7, sun: 7 },
};

/** A `unit` of `$dateTrunc`/`$dateDiff` (5439013, 5439014). */
function timeUnit(name: string, value: unknown): TimeUnit {
  if (typeof value !== 'string') {
    throw new CommandError('Location5439013', `${name} requires 'unit' to be a string, but got ${typeAlias(value)}`);
  }
  if (!TIME_UNITS.has(value)) {
    throw new CommandError(
      'Location5439014',
      `${name} parameter 'unit' value cannot be recognized as a time unit: ${value}`,
    );
  }
  return value as TimeUnit;
}

function dayOfWeekArgument(name: string, value: unknown): number {
  if (typeof value !== 'string') {
    throw new CommandError(
      'Location5439015',
      `${name} requires 'startOfWeek' to be a string, but got ${typeAlias(value)}`,
    );
  }
  const day = Object.hasOwn(DAYS_OF_WEEK, value.toLowerCase()) ? DAYS_OF_WEEK[value.toLowerCase()] : undefined;
  if (day === undefined) {
    throw new CommandError(
      'Location5439016',
      `${name} parameter 'startOfWeek' value cannot be recognized as a day of a week: ${value}`,
    );
  }
  return day;
}

/** Days between two calendar dates (dateDiffDay). */
const dayDiff = (a: LocalTime, b: LocalTime) =>
  daysFromCivil(b.year, b.month, b.day) - daysFromCivil(a.year, a.month, a.day);

/** 0 for the week's first day … 6 for its last, the week starting on `startOfWeek`. */
const dayInWeek = (t: LocalTime, startOfWeek: number) => (isoDayOfWeek(t.year, t.month, t.day) - startOfWeek + 7) % 7;

/** mongod's dateDiff over two local times. */
function localDiff(a: LocalTime, b: LocalTime, unit: TimeUnit, startOfWeek: number): number {
  switch (unit) {
    case 'year':
      return b.year - a.year;
    case 'quarter':
      return Math.floor((b.month - 1) / 3) - Math.floor((a.month - 1) / 3) + (b.year - a.year) * 4;
    case 'month':
      return b.month - a.month + (b.year - a.year) * 12;
    case 'week':
      return Math.trunc((dayDiff(a, b) + dayInWeek(a, startOfWeek) - dayInWeek(b, startOfWeek)) / 7);
    case 'day':
      return dayDiff(a, b);
    default: {
      // Hours, minutes and seconds of the local times, corrected by the change of offset between them.
      const hours = b.hour - a.hour + dayDiff(a, b) * 24;
      const minutes = b.minute - a.minute + hours * 60;
      const correction = a.offset - b.offset;
      if (unit === 'hour') return hours + Math.trunc(correction / 3600);
      if (unit === 'minute') return minutes + Math.trunc(correction / 60);
      return b.second - a.second + minutes * 60 + correction;
    }
  }
}

/** The largest amounts of each unit dateAdd takes (isDateAddAmountValid). */
const MAX_DAYS = 213_503_982_335;
const MAX_AMOUNT: Readonly<Record<string, number>> = {
  year: Math.floor(MAX_DAYS / 365) + 1,
  quarter: (Math.floor(MAX_DAYS / 365) + 1) * 4,
  month: (Math.floor(MAX_DAYS / 365) + 1) * 12,
  week: Math.floor(MAX_DAYS / 7),
  day: MAX_DAYS,
  hour: MAX_DAYS * 24,
  minute: MAX_DAYS * 24 * 60,
  second: MAX_DAYS * 24 * 3600,
};

/** A date as a JS Date; 5166406 when it is beyond what the server can hold. */
function dateResult(ms: number, code: `Location${number}` = 'Location5166406', what = 'dateAdd'): Date {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new CommandError(code, `${what} overflowed`);
  return new Date(ms);
}

/** mongod's dateAdd: units of a day and more move the local time, smaller ones the instant. */
export function dateAdd(ms: number, unit: TimeUnit, amount: number, zone: TimeZone): number {
  if (unit === 'millisecond') return ms + amount;
  const max = MAX_AMOUNT[unit]!;
  if (!(-max < amount && amount < max)) {
    throw new CommandError('Location5976500', `invalid dateAdd 'amount' parameter value: ${amount} ${unit}`);
  }
  const t = zone.local(ms);
  const localMs = ms + t.offset * 1000;
  if (unit === 'year' || unit === 'quarter' || unit === 'month') {
    const months = amount * (unit === 'year' ? 12 : unit === 'quarter' ? 3 : 1);
    const index = t.year * 12 + (t.month - 1) + months;
    const year = Math.floor(index / 12);
    const month = index - year * 12 + 1;
    // The day is kept, or the month's last when it has fewer days (2020-10-31 + 1 month is 2020-11-30).
    const day = Math.min(t.day, daysInMonth(year, month));
    const days = daysFromCivil(year, month, day) - daysFromCivil(t.year, t.month, t.day);
    return zone.kind === 'olson' ? zone.fromLocal(localMs + days * MS_PER_DAY) : ms + days * MS_PER_DAY;
  }
  const step = UNIT_MILLIS[unit]! * amount;
  if ((unit === 'day' || unit === 'week') && zone.kind === 'olson') return zone.fromLocal(localMs + step);
  return ms + step;
}

function checkDateArithmetic(name: string, spec: unknown): void {
  const args = checkFields(name, spec, ['startDate', 'unit', 'amount', 'timezone'], {
    notObject: 'Location5166400',
    unknown: 'Location5166401',
    notObjectMessage: `${name} expects an object as its argument`,
  });
  if (!['startDate', 'unit', 'amount'].every((field) => Object.hasOwn(args, field))) {
    throw new CommandError('Location5166402', `${name} requires startDate, unit, and amount to be present`);
  }
}

function dateArithmetic(name: '$dateAdd' | '$dateSubtract'): ExpressionOperator {
  return (obj, expr, options) => {
    const spec = expr as Document;
    const start = argument(obj, spec, 'startDate', options);
    const unit = argument(obj, spec, 'unit', options);
    const amount = argument(obj, spec, 'amount', options);
    const timezone = optional(obj, spec, 'timezone', options);
    if ([start, unit, amount].some(isNullish) || (timezone !== ABSENT && isNullish(timezone))) return null;
    const ms = dateMillis(start);
    if (ms === undefined) {
      throw new CommandError('Location5166403', `${name} requires startDate to be convertible to a date`);
    }
    if (typeof unit !== 'string') {
      throw new CommandError('Location5166404', `${name} expects string defining the time unit`);
    }
    if (!TIME_UNITS.has(unit)) throw new CommandError('FailedToParse', `unknown time unit value: ${unit}`);
    const n = integral64(amount);
    if (n === undefined) {
      throw new CommandError('Location5166405', `${name} expects integer amount of time units`);
    }
    const zone = zoneOf(timezone)!;
    if (name === '$dateSubtract' && n === INT64_MIN) {
      throw new CommandError('Location6045000', `invalid $dateSubtract 'amount' parameter value: ${n} ${unit}`);
    }
    const signed = Number(name === '$dateSubtract' ? -n : n);
    return dateResult(dateAdd(ms, unit as TimeUnit, signed, zone));
  };
}

function checkDateDiff(spec: unknown): void {
  const args = checkFields('$dateDiff', spec, ['startDate', 'endDate', 'unit', 'timezone', 'startOfWeek'], {
    notObject: 'Location5166301',
    unknown: 'Location5166302',
    notObjectMessage: '$dateDiff only supports an object as its argument',
  });
  for (const [field, code] of [
    ['startDate', 'Location5166303'],
    ['endDate', 'Location5166304'],
    ['unit', 'Location5166305'],
  ] as const) {
    if (!Object.hasOwn(args, field)) throw new CommandError(code, `Missing '${field}' parameter to $dateDiff`);
  }
}

function dateDiff(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const start = argument(obj, spec, 'startDate', options);
  const end = argument(obj, spec, 'endDate', options);
  const unitValue = argument(obj, spec, 'unit', options);
  const timezone = optional(obj, spec, 'timezone', options);
  if ([start, end, unitValue].some(isNullish) || (timezone !== ABSENT && isNullish(timezone))) return null;
  const unit = timeUnit('$dateDiff', unitValue);
  let startOfWeek = 7;
  if (unit === 'week' && Object.hasOwn(spec, 'startOfWeek')) {
    const value = argument(obj, spec, 'startOfWeek', options);
    if (isNullish(value)) return null;
    startOfWeek = dayOfWeekArgument('$dateDiff', value);
  }
  const zone = zoneOf(timezone)!;
  const [a, b] = (
    [
      ['startDate', start],
      ['endDate', end],
    ] as const
  ).map(([field, value]) => {
    const ms = dateMillis(value);
    if (ms === undefined) {
      throw new CommandError(
        'Location5166307',
        `$dateDiff requires '${field}' to be a date, but got ${typeAlias(value)}`,
      );
    }
    return ms;
  }) as [number, number];
  // A long long in mongod.
  if (unit === 'millisecond') return BigInt(b - a);
  return BigInt(localDiff(zone.local(a), zone.local(b), unit, startOfWeek));
}

function checkDateTrunc(spec: unknown): void {
  const args = checkFields('$dateTrunc', spec, ['date', 'unit', 'binSize', 'timezone', 'startOfWeek'], {
    notObject: 'Location5439007',
    unknown: 'Location5439008',
    notObjectMessage: '$dateTrunc only supports an object as its argument',
  });
  if (!Object.hasOwn(args, 'date')) throw new CommandError('Location5439009', "Missing 'date' parameter to $dateTrunc");
  if (!Object.hasOwn(args, 'unit')) throw new CommandError('Location5439010', "Missing 'unit' parameter to $dateTrunc");
}

/** 2000-01-01T00:00:00Z, the reference point mongod truncates from. */
const REFERENCE_MS = 946_684_800_000;

/** mongod's truncateDate. */
export function truncateDate(ms: number, unit: TimeUnit, binSize: bigint, zone: TimeZone, startOfWeek: number): number {
  const unitMillis = UNIT_MILLIS[unit];
  let reference = REFERENCE_MS - zone.offset(REFERENCE_MS) * 1000;
  if (unit !== 'week' && unit !== 'day' && unitMillis !== undefined) {
    const size = binSize * BigInt(unitMillis);
    if (!fitsInt64(size)) throw new CommandError('Location5439002', 'dateTrunc overflowed');
    const shifted = BigInt(ms) - BigInt(reference);
    const remainder = ((shifted % size) + size) % size;
    return ms - Number(remainder);
  }
  if (binSize > 100_000_000_000n) throw new CommandError('Location5439006', 'dateTrunc unsupported binSize value');
  let refDay = 1;
  if (unit === 'week') {
    // 2000-01-01 was a Saturday (6): the reference moves to the next first day of a week.
    const referenceDay = (6 - startOfWeek + 7) % 7;
    const adjust = (7 - referenceDay) % 7;
    reference += adjust * MS_PER_DAY;
    refDay += adjust;
  }
  const ref: LocalTime = {
    year: 2000,
    month: 1,
    day: refDay,
    hour: 0,
    minute: 0,
    second: 0,
    millisecond: 0,
    offset: 0,
  };
  const distance = localDiff(ref, zone.local(ms), unit, startOfWeek);
  const size = Number(binSize);
  const lower = distance - (((distance % size) + size) % size);
  return dateAdd(reference, unit, lower, zone);
}

function dateTrunc(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const date = argument(obj, spec, 'date', options);
  const unitValue = argument(obj, spec, 'unit', options);
  const binSizeValue = Object.hasOwn(spec, 'binSize') ? argument(obj, spec, 'binSize', options) : 1n;
  const timezone = optional(obj, spec, 'timezone', options);
  if ([date, unitValue, binSizeValue].some(isNullish) || (timezone !== ABSENT && isNullish(timezone))) return null;
  const unit = timeUnit('$dateTrunc', unitValue);
  let startOfWeek = 7;
  if (unit === 'week' && Object.hasOwn(spec, 'startOfWeek')) {
    const value = argument(obj, spec, 'startOfWeek', options);
    if (isNullish(value)) return null;
    startOfWeek = dayOfWeekArgument('$dateTrunc', value);
  }
  const binSize = typeof binSizeValue === 'bigint' ? binSizeValue : integral64(binSizeValue);
  if (binSize === undefined) {
    throw new CommandError(
      'Location5439017',
      `$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '${valueText(binSizeValue)}' of type ${typeAlias(binSizeValue)}`,
    );
  }
  if (binSize <= 0n) {
    throw new CommandError(
      'Location5439018',
      `$dateTrunc requires 'binSize' to be greater than 0, but got value ${binSize}`,
    );
  }
  const zone = zoneOf(timezone)!;
  const ms = dateMillis(date);
  if (ms === undefined) {
    throw new CommandError('Location5439012', `$dateTrunc requires 'date' to be a date, but got ${typeAlias(date)}`);
  }
  return dateResult(truncateDate(ms, unit, binSize, zone, startOfWeek), 'Location5439001', 'dateTrunc');
}

/** What mongod checks of these operators' arguments while it parses an expression. */
export const DATE_ARITHMETIC_CHECKS = new Map<string, (argument: unknown) => void>([
  ['$dateAdd', (spec) => checkDateArithmetic('$dateAdd', spec)],
  ['$dateSubtract', (spec) => checkDateArithmetic('$dateSubtract', spec)],
  ['$dateDiff', checkDateDiff],
  ['$dateTrunc', checkDateTrunc],
]);

/** `$dateAdd`, `$dateSubtract`, `$dateDiff` and `$dateTrunc`, mongod's. */
export const DATE_ARITHMETIC_OPERATORS: Readonly<Record<string, ExpressionOperator>> = {
  $dateAdd: dateArithmetic('$dateAdd'),
  $dateSubtract: dateArithmetic('$dateSubtract'),
  $dateDiff: dateDiff,
  $dateTrunc: dateTrunc,
};
