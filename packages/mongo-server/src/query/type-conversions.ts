/**
 * `$convert` and its shortcuts (`$toString`, `$toInt`, `$toLong`,
 * `$toDouble`, `$toDecimal`, `$toBool`, `$toDate`, `$toObjectId`) with
 * mongod's conversion table, result types and errors (ConversionFailure,
 * "… in $convert with no onError value"). mingo refused an ObjectId or a
 * Decimal128 to string, typed `$toLong`/`$toDecimal` results as int32 or
 * double, and lost an Int64's digits on the way to a decimal.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { Decimal128, ObjectId, Timestamp } from '../bson/bson-library.cjs';
import { CommandError } from '../commands/command-error.js';
import { parseDateString } from './date-from-string.js';
import { TimeZone } from './date-time-zones.js';
import { decimalArithmetic, parseDecimal } from './decimal-arithmetic.js';
import { TYPE_ALIASES, typeAlias } from './element-operators.js';
import { notSupported } from './expression-check.js';
import { INT64_MAX, INT64_MIN, numericType, storedDouble, toDouble } from './numeric-types.js';
import { isNullish } from './operand-lists.js';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

/**
 * A target: a BSON type's name (or `missing`). `$convert` converts to double,
 * string, objectId, bool, date, int, long and decimal; to any other type no
 * value converts (an "Unsupported conversion" that `onError` catches).
 */
type Target = string;

const NO_ON_ERROR = ' in $convert with no onError value';

/** A conversion that failed (mongod's wording: the reason, where it failed, then why): `$convert` answers its `onError` if it has one. */
class ConversionFailure extends CommandError {
  constructor(reason: string, cause?: string) {
    super('ConversionFailure', `${reason}${NO_ON_ERROR}${cause === undefined ? '' : `: ${cause}`}`);
  }
}

/** The longest number at the start of text: an integer's digits, or a double's (a fraction and an exponent too). */
const INTEGER_PREFIX = /^-?\d+/;
const DOUBLE_PREFIX = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?/i;

/** mongod's failure to read a number from text, with the cause its parser (parseNumberFromString) gives. */
function parseFailure(text: string, prefix: RegExp): ConversionFailure {
  if (/^[-+]?0x/i.test(text)) return new ConversionFailure('Illegal hexadecimal input');
  const cause = prefix.test(text) ? 'Did not consume whole string.' : 'Did not consume any digits';
  return new ConversionFailure(`Failed to parse number '${text}'`, cause);
}

const unsupported = (value: unknown, target: string) =>
  new ConversionFailure(`Unsupported conversion from ${typeAlias(value)} to ${target}`);

const overflow = () => new ConversionFailure('Conversion would overflow target type');

/** `to` as a target, with mongod's errors for one it has not (checked on every evaluation, as mongod does). */
function targetOf(to: unknown): Target {
  if (typeof to === 'string') {
    if (Object.hasOwn(TYPE_ALIASES, to) || to === 'missing') return to;
    throw new CommandError('BadValue', `Unknown type name: ${to}`);
  }
  if (numericType(to) !== undefined) {
    const code = toDouble(to);
    if (!Number.isInteger(code)) {
      throw new CommandError('FailedToParse', "In $convert, numeric 'to' argument is not an integer");
    }
    const name = Object.keys(TYPE_ALIASES).find((key) => TYPE_ALIASES[key] === code);
    if (name) return name;
    throw new CommandError(
      'FailedToParse',
      `In $convert, numeric value for 'to' does not correspond to a BSON type: ${String(to)}`,
    );
  }
  throw new CommandError(
    'FailedToParse',
    `$convert's 'to' argument must be a string or number, but is ${typeAlias(to)}`,
  );
}

/** A whole number from text as mongod's parseNumberFromString reads it: an optional `-`, then digits only. */
function parseInteger(text: string, min: bigint, max: bigint): bigint {
  if (!/^-?\d+$/.test(text)) throw parseFailure(text, INTEGER_PREFIX);
  // Digits past an Int64's 19 overflow: no need to read megabytes of them into a bigint.
  if (text.replace(/^-0*|^0+/, '').length > 20) {
    throw new ConversionFailure(`Failed to parse number '${text}'`, 'Overflow');
  }
  const n = BigInt(text);
  if (n < min || n > max) throw new ConversionFailure(`Failed to parse number '${text}'`, 'Overflow');
  return n;
}

/** An integer target's value of a number or text, truncated, with mongod's overflow and NaN errors. */
function toInteger(value: unknown, target: 'int' | 'long'): bigint {
  const [min, max] = target === 'int' ? [-(2n ** 31n), 2n ** 31n - 1n] : [INT64_MIN, INT64_MAX];
  let n: bigint;
  switch (numericType(value)) {
    case 'int':
    case 'long':
      n = BigInt(String(value));
      break;
    case 'double': {
      const x = toDouble(value);
      checkFinite(String(x));
      // The double itself must be in range (2147483647.5 overflows an int), not only its truncation.
      if (x < Number(min) || x > Number(max) || (target === 'long' && x >= 2 ** 63)) throw overflow();
      n = truncated(x);
      break;
    }
    case 'decimal':
      checkFinite(String(value));
      n = truncated(String(value));
      break;
    default:
      if (typeof value === 'boolean') return value ? 1n : 0n;
      if (typeof value === 'string') n = parseInteger(value, min, max);
      else if (value instanceof Date && target === 'long') n = BigInt(value.getTime());
      else throw unsupported(value, target);
  }
  if (n < min || n > max) throw overflow();
  return n;
}

/** mongod's failure for a NaN or an infinity where an integer (or a date's milliseconds) is wanted. */
function checkFinite(text: string): void {
  if (/nan/i.test(text)) throw new ConversionFailure('Attempt to convert NaN value to integer type');
  if (/inf/i.test(text)) throw new ConversionFailure('Attempt to convert infinity value to integer type');
}

/** A finite double or a decimal's text, truncated towards zero. */
function truncated(value: number | string): bigint {
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:E([+-]\d+))?$/i.exec(value);
  if (!match) throw parseFailure(value, DOUBLE_PREFIX);
  const digits = BigInt(`${match[2]}${match[3] ?? ''}`);
  const exponent = Number(match[4] ?? 0) - (match[3] ?? '').length;
  const whole = exponent >= 0 ? digits * 10n ** BigInt(exponent) : digits / 10n ** BigInt(-exponent);
  return match[1] ? -whole : whole;
}

/** A double from a number, text (decimal notation, an exponent, Infinity, NaN), a bool or a date. */
function toDoubleValue(value: unknown): unknown {
  switch (numericType(value)) {
    case 'double':
      return value;
    case 'int':
    case 'long':
      return storedDouble(Number(value));
    case 'decimal': {
      const x = Number(String(value));
      if (!Number.isFinite(x) && !/inf|nan/i.test(String(value))) throw overflow();
      return storedDouble(x);
    }
  }
  if (typeof value === 'boolean') return storedDouble(value ? 1 : 0);
  if (value instanceof Date) return storedDouble(value.getTime());
  if (typeof value === 'string') {
    const text = value;
    if (/^[-+]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
    if (/^[-+]?nan$/i.test(text)) return NaN;
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) throw parseFailure(text, DOUBLE_PREFIX);
    const x = Number(text);
    // Past a double's range either way (1E+309, 1E-1000) is an error, not an infinity or a zero.
    if (!Number.isFinite(x) || (x === 0 && /[1-9]/.test(text.replace(/e.*$/i, '')))) {
      throw new ConversionFailure(`Failed to parse number '${text}'`, 'Out of range');
    }
    return storedDouble(x);
  }
  throw unsupported(value, 'double');
}

/** A Decimal128 from a number (a double at 15 digits, as mongod converts one), text, a bool or a date. */
function toDecimalValue(value: unknown): Decimal128 {
  if (numericType(value) === 'decimal') return value as Decimal128;
  if (numericType(value) !== undefined) return decimalArithmetic('$add', [value]);
  if (typeof value === 'boolean') return Decimal128.fromString(value ? '1' : '0');
  if (value instanceof Date) return Decimal128.fromString(String(value.getTime()));
  if (typeof value === 'string') {
    if (/^[-+]?0x/i.test(value)) throw new ConversionFailure('Illegal hexadecimal input');
    const parsed = parseDecimal(value);
    if (parsed === undefined) throw new ConversionFailure('Failed to parse string to decimal');
    if (typeof parsed === 'string') throw new ConversionFailure(`Conversion from string to decimal would ${parsed}`);
    return parsed;
  }
  throw unsupported(value, 'decimal');
}

/** A date: an Int64, double or decimal is milliseconds since the epoch; an ObjectId its creation second. */
function toDateValue(value: unknown): Date {
  if (value instanceof Date) return value;
  if (value instanceof ObjectId) return value.getTimestamp();
  if (value instanceof Timestamp) return new Date(value.t * 1000);
  const type = numericType(value);
  if (type === 'long' || type === 'double' || type === 'decimal') {
    const millis = type === 'long' ? Number(value) : toDouble(value);
    checkFinite(String(millis));
    if (Math.abs(millis) >= 2 ** 63) throw overflow();
    // A BSON date holds any Int64 of milliseconds; the server's dates (JavaScript's) end at ±8.64e15.
    if (Math.abs(millis) > MAX_DATE_MILLIS) throw notSupported('A date this far from 1970 (beyond year 275760)');
    return new Date(Math.trunc(millis));
  }
  if (typeof value === 'string') {
    // mongod reads it as $dateFromString does without a format (TimeZoneDatabase::fromString).
    try {
      return new Date(parseDateString(value, TimeZone.UTC));
    } catch (error) {
      if (!(error instanceof CommandError) || error.codeName !== 'ConversionFailure') throw error;
      throw new ConversionFailure(error.message);
    }
  }
  throw unsupported(value, 'date');
}

const HEX_24 = /^[0-9a-fA-F]{24}$/;

/** The furthest a JavaScript Date reaches from the epoch, in milliseconds. */
const MAX_DATE_MILLIS = 8.64e15;

/** An ObjectId from its 24 hex characters (or itself). */
function toObjectIdValue(value: unknown): ObjectId {
  if (value instanceof ObjectId) return value;
  if (typeof value !== 'string') throw unsupported(value, 'objectId');
  const cause =
    value.length !== 24
      ? `Invalid string length for parsing to OID, expected 24 but found ${value.length}`
      : !HEX_24.test(value)
        ? 'Invalid character found in hex string'
        : undefined;
  if (cause) throw new ConversionFailure(`Failed to parse objectId '${value}'`, cause);
  return ObjectId.createFromHexString(value);
}

/** Text of a value: a double as mongod prints one, an ObjectId in hex, a date in ISO 8601 with milliseconds. */
function toStringValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof ObjectId) return value.toHexString();
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw unsupported(value, 'string');
    return value.toISOString();
  }
  switch (numericType(value)) {
    case 'int':
    case 'long':
    case 'decimal':
      return String(value);
    case 'double':
      return Object.is(toDouble(value), -0) ? '-0' : String(toDouble(value));
  }
  throw unsupported(value, 'string');
}

/** A boolean: a number is true unless zero, anything else (a string, "" too) is true. */
function toBoolValue(value: unknown): boolean {
  switch (numericType(value)) {
    case 'int':
    case 'double':
      return toDouble(value) !== 0;
    case 'long':
      return value !== 0n;
    case 'decimal':
      return !/^-?0(\.0*)?(E[-+]\d+)?$/i.test(String(value));
  }
  return typeof value === 'boolean' ? value : true;
}

/** `value` converted to `target` (null and missing were answered before). */
function convertValue(value: unknown, target: Target): unknown {
  switch (target) {
    case 'double':
      return toDoubleValue(value);
    case 'string':
      return toStringValue(value);
    case 'objectId':
      return toObjectIdValue(value);
    case 'bool':
      return toBoolValue(value);
    case 'date':
      return toDateValue(value);
    case 'int':
      return Number(toInteger(value, 'int'));
    case 'long':
      return toInteger(value, 'long');
    case 'decimal':
      return toDecimalValue(value);
    default:
      throw unsupported(value, target);
  }
}

/** `$convert: { input, to, onError, onNull }`. */
function convert(obj: unknown, expr: unknown, options: Options): unknown {
  const spec = expr as Document;
  const input: unknown = evalExpr(obj, spec.input, options);
  const to: unknown = evalExpr(obj, spec.to, options);
  // A bad `to` fails even for a null input; a null `to` answers null, or onNull for a null input.
  const target = isNullish(to) ? undefined : targetOf(to);
  if (isNullish(input)) return 'onNull' in spec ? evalExpr(obj, spec.onNull, options) : null;
  if (target === undefined) return null;
  try {
    return convertValue(input, target);
  } catch (error) {
    if (error instanceof ConversionFailure && 'onError' in spec) return evalExpr(obj, spec.onError, options);
    throw error;
  }
}

/** A `$toX` shortcut: `$convert` to `target` with neither onError nor onNull. */
function shortcut(target: Target): ExpressionOperator {
  return (obj, expr, options) => {
    const input: unknown = evalExpr(obj, expr, options);
    return isNullish(input) ? null : convertValue(input, target);
  };
}

/** `$isNumber`: true for an int32, Int64, double or Decimal128 (mingo said false for the last two). */
function isNumber(obj: unknown, expr: unknown, options: Options): boolean {
  return numericType(evalExpr(obj, expr, options)) !== undefined;
}

/** The conversion operators with mongod's table. */
export const CONVERSION_OPERATORS: Readonly<Record<string, ExpressionOperator>> = {
  $convert: convert,
  $toString: shortcut('string'),
  $toInt: shortcut('int'),
  $toLong: shortcut('long'),
  $toDouble: shortcut('double'),
  $toDecimal: shortcut('decimal'),
  $toBool: shortcut('bool'),
  $toDate: shortcut('date'),
  $toObjectId: shortcut('objectId'),
  $isNumber: isNumber,
};
