/**
 * MongoDB 7's date expressions, as mongod's expression.cpp and
 * date_time_support.cpp compute them, in place of mingo's: `$year` … `$week`,
 * `$isoWeekYear` and the other single parts, `$dateToString`,
 * `$dateFromString`, `$dateToParts`, `$dateFromParts`, and (from
 * date-arithmetic.ts) `$dateAdd`, `$dateSubtract`, `$dateDiff` and
 * `$dateTrunc`. mingo refused Olson names
 * with three parts or a hyphen (`America/Argentina/Buenos_Aires`,
 * `America/Port-au-Prince`), ignored a named zone in `$dateAdd`, shifted
 * `$dateFromParts` dates without a month or day, answered an int for
 * `$dateDiff` (mongod: a long) and failed with code 2 where mongod names a
 * code. Arguments are checked while parsing ({@link DATE_ARGUMENT_CHECKS}),
 * values while evaluating, each in mongod's order.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { formatDocument } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import {
  ABSENT,
  argument,
  checkFields,
  coerceToDate,
  constantOf,
  type ExpressionOperator,
  integral64,
  MS_PER_DAY,
  optional,
  valueText,
  zoneOf,
} from './date-arguments.js';
import { DATE_ARITHMETIC_CHECKS, DATE_ARITHMETIC_OPERATORS } from './date-arithmetic.js';
import { parseDateString, validateFromStringFormat } from './date-from-string.js';
import {
  dateFromIsoWeek,
  dayOfYear,
  daysFromCivil,
  isoDayOfWeek,
  isoWeekOf,
  type LocalTime,
  TimeZone,
} from './date-time-zones.js';
import { typeAlias } from './element-operators.js';
import { fitsInt64 } from './numeric-types.js';
import { isNullish } from './operand-lists.js';

// ---------------------------------------------------------------------------
// The single parts: $year, $month, … $isoWeekYear
// ---------------------------------------------------------------------------

/** mongod's `$week`: weeks start on Sunday; the days before the year's first Sunday are week 0. */
function sundayWeek(local: LocalTime): number {
  const weekDay = (isoDayOfWeek(local.year, local.month, local.day) % 7) + 1;
  return Math.floor((dayOfYear(local.year, local.month, local.day) - weekDay + 7) / 7);
}

const SINGLE_PARTS: Record<string, (local: LocalTime) => number | bigint> = {
  $year: (t) => t.year,
  $month: (t) => t.month,
  $dayOfMonth: (t) => t.day,
  $hour: (t) => t.hour,
  $minute: (t) => t.minute,
  $second: (t) => t.second,
  $millisecond: (t) => t.millisecond,
  // 1 for Sunday … 7 for Saturday.
  $dayOfWeek: (t) => (isoDayOfWeek(t.year, t.month, t.day) % 7) + 1,
  $dayOfYear: (t) => dayOfYear(t.year, t.month, t.day),
  $week: sundayWeek,
  $isoWeek: (t) => isoWeekOf(t.year, t.month, t.day).isoWeek,
  $isoDayOfWeek: (t) => isoDayOfWeek(t.year, t.month, t.day),
  // A long long in mongod (TimeZone::isoYear), so a NumberLong.
  $isoWeekYear: (t) => BigInt(isoWeekOf(t.year, t.month, t.day).isoYear),
};

/** The `{date, timezone}` form of a single part's argument, or undefined for an expression of the date. */
function singlePartSpec(argument: unknown): Document | undefined {
  if (typeAlias(argument) !== 'object') return undefined;
  const first = Object.keys(argument as Document)[0];
  return first === undefined || !first.startsWith('$') ? (argument as Document) : undefined;
}

function checkSinglePart(name: string, argument: unknown): void {
  if (Array.isArray(argument) && argument.length !== 1) {
    throw new CommandError(
      'Location40536',
      `${name} accepts exactly one argument if given an array, but was given ${argument.length}`,
    );
  }
  const spec = singlePartSpec(argument);
  if (!spec) return;
  for (const field of Object.keys(spec)) {
    if (field !== 'date' && field !== 'timezone') {
      throw new CommandError('Location40535', `unrecognized option to ${name}: "${field}"`);
    }
  }
  if (!Object.hasOwn(spec, 'date')) {
    throw new CommandError('Location40539', `missing 'date' argument to ${name}, provided: ${formatDocument(spec)}`);
  }
}

function singlePart(name: string, part: (local: LocalTime) => number | bigint): ExpressionOperator {
  return (obj, expr, options) => {
    const operand = Array.isArray(expr) && expr.length === 1 ? expr[0] : expr;
    const spec = singlePartSpec(operand);
    const date: unknown = evalExpr(obj, spec ? spec.date : operand, options);
    if (isNullish(date)) return null;
    let zone = TimeZone.UTC;
    if (spec && Object.hasOwn(spec, 'timezone')) {
      const timezone: unknown = evalExpr(obj, spec.timezone, options);
      if (isNullish(timezone)) return null;
      if (typeof timezone !== 'string') {
        throw new CommandError(
          'Location40533',
          `${name} requires a string for the timezone argument, but was given a ${typeAlias(timezone)} (${valueText(timezone)})`,
        );
      }
      zone = TimeZone.named(timezone);
    }
    return part(zone.local(coerceToDate(date)));
  };
}

// ---------------------------------------------------------------------------
// $dateToString
// ---------------------------------------------------------------------------

const TO_STRING_LETTERS = new Set('bBdGHjLmMSwuUVYzZ');

const MONTHS = [
  ...['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October'],
  ...['November', 'December'],
];

/** mongod's `validateToStringFormat`: each `%` followed by a known letter or `%`. */
export function validateToStringFormat(format: string): void {
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') continue;
    i++;
    if (i >= format.length) throw new CommandError('Location18535', "Unmatched '%' at end of format string");
    if (format[i] !== '%' && !TO_STRING_LETTERS.has(format[i]!)) {
      throw new CommandError('Location18536', `Invalid format character '%${format[i]}' in format string`);
    }
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A year `%Y`/`%G` prints: mongod prints four digits, and refuses one it cannot (18537). */
function fourDigitYear(year: number): string {
  if (year < 0 || year > 9999) {
    throw new CommandError(
      'Location18537',
      `Could not convert date to string: date component was outside the supported range of 0-9999: ${year}`,
    );
  }
  return pad(year, 4);
}

/** `ms` printed with `format` in `zone`, as TimeZone::outputDateWithFormat prints it. */
export function formatDate(format: string, ms: number, zone: TimeZone): string {
  const t = zone.local(ms);
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    const letter = format[++i];
    switch (letter) {
      case '%':
        out += '%';
        break;
      case 'Y':
        out += fourDigitYear(t.year);
        break;
      case 'm':
        out += pad(t.month, 2);
        break;
      case 'd':
        out += pad(t.day, 2);
        break;
      case 'H':
        out += pad(t.hour, 2);
        break;
      case 'M':
        out += pad(t.minute, 2);
        break;
      case 'S':
        out += pad(t.second, 2);
        break;
      case 'L':
        out += pad(t.millisecond, 3);
        break;
      case 'j':
        out += pad(dayOfYear(t.year, t.month, t.day), 3);
        break;
      case 'w':
        out += String((isoDayOfWeek(t.year, t.month, t.day) % 7) + 1);
        break;
      case 'u':
        out += String(isoDayOfWeek(t.year, t.month, t.day));
        break;
      case 'U':
        out += pad(sundayWeek(t), 2);
        break;
      case 'V':
        out += pad(isoWeekOf(t.year, t.month, t.day).isoWeek, 2);
        break;
      case 'G':
        out += fourDigitYear(isoWeekOf(t.year, t.month, t.day).isoYear);
        break;
      case 'b':
        out += MONTHS[t.month - 1]!.slice(0, 3);
        break;
      case 'B':
        out += MONTHS[t.month - 1]!;
        break;
      case 'z': {
        // Seconds of a historic offset are left out, as mongod's ±hhmm leaves them.
        const minutes = Math.trunc(Math.abs(t.offset) / 60);
        out += `${t.offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60), 2)}${pad(minutes % 60, 2)}`;
        break;
      }
      case 'Z':
        out += String(Math.trunc(t.offset / 60));
        break;
      default:
        validateToStringFormat(format);
    }
  }
  return out;
}

const ISO_FORMAT = '%Y-%m-%dT%H:%M:%S.%LZ';

function checkDateToString(spec: unknown): void {
  const args = checkFields('$dateToString', spec, ['date', 'format', 'timezone', 'onNull'], {
    notObject: 'Location18629',
    unknown: 'Location18534',
    notObjectMessage: '$dateToString only supports an object as its argument',
  });
  if (!Object.hasOwn(args, 'date')) {
    throw new CommandError('Location18628', "Missing 'date' parameter to $dateToString");
  }
  const format = Object.hasOwn(args, 'format') ? constantOf(args.format) : undefined;
  if (format && !isNullish(format.value)) formatArgument('$dateToString', 'Location18533', format.value);
}

/** A `format` that is not nullish: a string (`code` otherwise) of valid letters. */
function formatArgument(name: string, code: `Location${number}`, value: unknown): string {
  if (typeof value !== 'string') {
    throw new CommandError(
      code,
      `${name} requires that 'format' be a string, found: ${typeAlias(value)} with value ${valueText(value)}`,
    );
  }
  if (name === '$dateToString') validateToStringFormat(value);
  else validateFromStringFormat(value);
  return value;
}

function dateToString(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const date = argument(obj, spec, 'date', options);
  const format = optional(obj, spec, 'format', options);
  if (format !== ABSENT && !isNullish(format)) formatArgument('$dateToString', 'Location18533', format);
  const zone = zoneOf(optional(obj, spec, 'timezone', options));
  if (isNullish(date)) return Object.hasOwn(spec, 'onNull') ? argument(obj, spec, 'onNull', options) : null;
  if (!zone || (format !== ABSENT && isNullish(format))) return null;
  return formatDate(format === ABSENT ? ISO_FORMAT : (format as string), coerceToDate(date), zone);
}

// ---------------------------------------------------------------------------
// $dateFromString
// ---------------------------------------------------------------------------

function checkDateFromString(spec: unknown): void {
  const args = checkFields('$dateFromString', spec, ['dateString', 'timezone', 'format', 'onNull', 'onError'], {
    notObject: 'Location40540',
    unknown: 'Location40541',
    notObjectMessage: '$dateFromString only supports an object as an argument',
  });
  if (!Object.hasOwn(args, 'dateString')) {
    throw new CommandError('Location40542', "Missing 'dateString' parameter to $dateFromString");
  }
  const format = Object.hasOwn(args, 'format') ? constantOf(args.format) : undefined;
  if (format && !isNullish(format.value)) formatArgument('$dateFromString', 'Location40684', format.value);
}

function dateFromString(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const text = argument(obj, spec, 'dateString', options);
  const format = optional(obj, spec, 'format', options);
  if (format !== ABSENT && !isNullish(format)) formatArgument('$dateFromString', 'Location40684', format);
  const zone = zoneOf(optional(obj, spec, 'timezone', options));
  if (isNullish(text)) return Object.hasOwn(spec, 'onNull') ? argument(obj, spec, 'onNull', options) : null;
  try {
    // A dateString of another type fails first, so that onError answers for it whatever else is null.
    if (typeof text !== 'string') {
      throw new CommandError(
        'ConversionFailure',
        `$dateFromString requires that 'dateString' be a string, found: ${typeAlias(text)} with value ${valueText(text)}`,
      );
    }
    if (!zone || (format !== ABSENT && isNullish(format))) return null;
    return new Date(parseDateString(text, zone, format === ABSENT ? undefined : (format as string)));
  } catch (error) {
    if (error instanceof CommandError && error.codeName === 'ConversionFailure' && Object.hasOwn(spec, 'onError')) {
      return argument(obj, spec, 'onError', options);
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------
// $dateToParts and $dateFromParts
// ---------------------------------------------------------------------------

function checkDateToParts(spec: unknown): void {
  const args = checkFields('$dateToParts', spec, ['date', 'timezone', 'iso8601'], {
    notObject: 'Location40524',
    unknown: 'Location40520',
    notObjectMessage: '$dateToParts only supports an object as its argument',
  });
  if (!Object.hasOwn(args, 'date')) {
    throw new CommandError('Location40522', "Missing 'date' parameter to $dateToParts");
  }
}

function dateToParts(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const date = argument(obj, spec, 'date', options);
  const zone = zoneOf(optional(obj, spec, 'timezone', options));
  if (!zone) return null;
  const iso = optional(obj, spec, 'iso8601', options);
  if (iso !== ABSENT) {
    if (isNullish(iso)) return null;
    if (typeof iso !== 'boolean') {
      throw new CommandError('Location40521', `iso8601 must evaluate to a bool, found ${typeAlias(iso)}`);
    }
  }
  if (isNullish(date)) return null;
  const t = zone.local(coerceToDate(date));
  const time = { hour: t.hour, minute: t.minute, second: t.second, millisecond: t.millisecond };
  if (iso === true) {
    const { isoYear, isoWeek } = isoWeekOf(t.year, t.month, t.day);
    return { isoWeekYear: isoYear, isoWeek, isoDayOfWeek: isoDayOfWeek(t.year, t.month, t.day), ...time };
  }
  return { year: t.year, month: t.month, day: t.day, ...time };
}

const NATURAL_PARTS = ['year', 'month', 'day'] as const;
const ISO_PARTS = ['isoWeekYear', 'isoWeek', 'isoDayOfWeek'] as const;
const TIME_PARTS = ['hour', 'minute', 'second', 'millisecond'] as const;

function checkDateFromParts(spec: unknown): void {
  const args = checkFields('$dateFromParts', spec, [...NATURAL_PARTS, ...ISO_PARTS, ...TIME_PARTS, 'timezone'], {
    notObject: 'Location40519',
    unknown: 'Location40518',
    notObjectMessage: '$dateFromParts only supports an object as its argument',
  });
  const has = (field: string) => Object.hasOwn(args, field);
  if (!has('year') && !has('isoWeekYear')) {
    throw new CommandError('Location40516', "$dateFromParts requires either 'year' or 'isoWeekYear' to be present");
  }
  if (has('year') && (has('isoWeekYear') || has('isoWeek') || has('isoDayOfWeek'))) {
    throw new CommandError('Location40489', '$dateFromParts does not allow mixing natural dates with ISO dates');
  }
  if (has('isoWeekYear') && (has('month') || has('day'))) {
    throw new CommandError('Location40525', '$dateFromParts does not allow mixing ISO dates with natural dates');
  }
}

/** The parts a date part may be in mongod (kMinValueForDatePart, kMaxValueForDatePart). */
const PART_MIN = -32_768;
const PART_MAX = 32_767;

/** The parts that are not bounded to [-32768, 32767] (mongod reads them with evaluateNumberWithDefault). */
const UNBOUNDED_PARTS = new Set(['second', 'millisecond']);

function dateFromParts(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const iso = Object.hasOwn(spec, 'isoWeekYear');
  const names = [...(iso ? ISO_PARTS : NATURAL_PARTS), ...TIME_PARTS];
  const defaults: Record<string, number> = { year: 1970, isoWeekYear: 1970, month: 1, day: 1, isoWeek: 1 };
  const values: Record<string, number> = {};
  let nullish = false;
  for (const name of names) {
    if (!Object.hasOwn(spec, name)) {
      values[name] = defaults[name] ?? (name === 'isoDayOfWeek' ? 1 : 0);
      continue;
    }
    const value: unknown = evalExpr(obj, spec[name], options);
    if (isNullish(value)) {
      nullish = true;
      continue;
    }
    const n = integral64(value);
    if (n === undefined) {
      throw new CommandError(
        'Location40515',
        `'${name}' must evaluate to an integer, found ${typeAlias(value)} with value ${valueText(value)}`,
      );
    }
    if (!UNBOUNDED_PARTS.has(name) && (n < PART_MIN || n > PART_MAX)) {
      throw new CommandError(
        'Location31034',
        `'${name}' must evaluate to a value in the range [${PART_MIN}, ${PART_MAX}], found ${n}`,
      );
    }
    if (name === 'millisecond' && !fitsInt64(n * 1000n)) {
      throw new CommandError(
        'DurationOverflow',
        'Overflow casting from a lower-precision duration to a higher-precision duration',
      );
    }
    values[name] = Number(n);
  }
  const zone = zoneOf(optional(obj, spec, 'timezone', options));
  if (nullish || !zone) return null;
  const year = iso ? values.isoWeekYear! : values.year!;
  if (year < 1 || year > 9999) {
    throw new CommandError(
      iso ? 'Location31095' : 'Location40523',
      `'${iso ? 'isoWeekYear' : 'year'}' must evaluate to an integer in the range 1 to 9999, found ${year}`,
    );
  }
  const { hour, minute, second, millisecond } = values as Record<(typeof TIME_PARTS)[number], number>;
  const time = hour! * 3_600_000 + minute! * 60_000 + second! * 1000 + millisecond!;
  const days = iso
    ? dateFromIsoWeek(year, values.isoWeek!, values.isoDayOfWeek!)
    : daysFromCivil(year, values.month!, 1) + values.day! - 1;
  return new Date(zone.fromLocal(days * MS_PER_DAY + time));
}

// ---------------------------------------------------------------------------

/**
 * What mongod checks of the date operators' arguments while it parses an
 * expression, before any document is read (run by expression-check.ts).
 */
export const DATE_ARGUMENT_CHECKS = new Map<string, (argument: unknown) => void>([
  ...Object.keys(SINGLE_PARTS).map((name): [string, (argument: unknown) => void] => [
    name,
    (argument) => checkSinglePart(name, argument),
  ]),
  ['$dateToString', checkDateToString],
  ['$dateFromString', checkDateFromString],
  ['$dateToParts', checkDateToParts],
  ['$dateFromParts', checkDateFromParts],
  ...DATE_ARITHMETIC_CHECKS,
]);

/** The date expression operators, mongod's, by name. */
export const DATE_OPERATORS: Readonly<Record<string, ExpressionOperator>> = {
  ...Object.fromEntries(Object.entries(SINGLE_PARTS).map(([name, part]) => [name, singlePart(name, part)])),
  $dateToString: dateToString,
  $dateFromString: dateFromString,
  $dateToParts: dateToParts,
  $dateFromParts: dateFromParts,
  ...DATE_ARITHMETIC_OPERATORS,
};
