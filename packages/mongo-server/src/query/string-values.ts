/**
 * How mongod's string expressions read their operands (value.cpp's
 * `coerceToString`, `integral`, `coerceToInt`), shared by the string
 * operator modules.
 */
import { bsonTag } from '../bson/bson-compare.js';
import { formatValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { numericType, toDouble } from './numeric-types.js';
import { isNullish } from './operand-lists.js';

/** mongod's largest string value (`BSONObjMaxUserSize`): it refuses to create one this long. */
export const MAX_STRING_BYTES = 16 * 1024 * 1024;

/** mongod's 16493, refusing a string from 16 MiB before it is built. */
export function stringTooLong(): CommandError {
  return new CommandError('Location16493', `Tried to create string longer than ${MAX_STRING_BYTES / 1024 / 1024}MB`);
}

/** `YYYY-MM-DDTHH:MM:SS` of `seconds` since the epoch, UTC. */
function secondsText(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/**
 * mongod's `Value::coerceToString`: numbers as its streams print them
 * (doubles as `%g`), dates in ISO form, null and missing as the empty
 * string; 16007 for the types it cannot convert (arrays, documents, regexes,
 * booleans, …).
 */
export function coerceToString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isNullish(value)) return '';
  const numeric = numericType(value);
  if (numeric === 'int' || numeric === 'long') return String(value);
  if (numeric === 'double') return formatValue(value);
  if (numeric === 'decimal') return String(value);
  const type = typeAlias(value);
  if (type === 'date') return (value as Date).toISOString();
  if (type === 'symbol') return String((value as { value?: unknown }).value ?? '');
  if (type === 'javascript') return String((value as { code?: unknown }).code ?? '');
  if (type === 'timestamp') {
    const timestamp = value as { t: number; i: number };
    return `${secondsText(timestamp.t)}:${timestamp.i}`;
  }
  throw new CommandError('Location16007', `can't convert from BSON type ${type} to String`);
}

/**
 * mongod's `Value::integral()` and `coerceToInt()`: the value of a number
 * that an int32 holds exactly, undefined for anything else (a fraction, NaN,
 * a number out of range, a non-number).
 */
export function int32Of(value: unknown): number | undefined {
  const type = numericType(value);
  if (type === undefined) return undefined;
  if (type === 'decimal' && !/^-?\d+(?:\.0*)?(?:E\+?\d+)?$/i.test(String(value))) return undefined;
  const n = toDouble(value);
  return Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 ? n : undefined;
}

/** mongod's `coerceToLong()` of a number: its integral part (doubles and decimals truncate). */
export function truncatedNumber(value: unknown): number {
  const n = toDouble(value);
  return Number.isNaN(n) ? 0 : Math.trunc(n);
}

/** Whether `value` is one of the four numeric BSON types. */
export function isNumeric(value: unknown): boolean {
  return numericType(value) !== undefined;
}

/** mongod's `Value::toString()` of a value in a message. */
export function valueText(value: unknown): string {
  return bsonTag(value) === 'Decimal128' ? String(value) : formatValue(value);
}
