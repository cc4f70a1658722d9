/**
 * The arguments of mongod's date expressions, read as expression.cpp reads
 * them: dates coerced from Date, Timestamp or ObjectId, whole numbers as
 * Int64, optional arguments told from missing ones, and a document
 * argument's fields checked against the operator's own.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';

import { bsonTag } from '../bson/bson-compare.js';
import { formatDocument } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { TimeZone, timeZoneArgument } from './date-time-zones.js';
import { typeAlias } from './element-operators.js';
import { fitsInt64, integerValue, numericType, toDouble } from './numeric-types.js';
import { isNullish } from './operand-lists.js';

/** An expression operator as mingo calls it. */
export type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

export const MS_PER_DAY = 86_400_000;

/** A BSON value coerced to a date as mongod's `Value::coerceToDate` does: Date, Timestamp, ObjectId. */
export function dateMillis(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  const tag = bsonTag(value);
  if (tag === 'Timestamp') return Number((value as { t: number }).t) * 1000;
  if (tag === 'ObjectId') return (value as { getTimestamp(): Date }).getTimestamp().getTime();
  return undefined;
}

/** 16006, as `coerceToDate` fails. */
export function coerceToDate(value: unknown): number {
  const ms = dateMillis(value);
  if (ms === undefined) {
    throw new CommandError('Location16006', `can't convert from BSON type ${typeAlias(value)} to Date`);
  }
  return ms;
}

/** mongod's `Value::toString` of a scalar in a message. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (numericType(value) !== undefined) return String(numericType(value) === 'decimal' ? value : toDouble(value));
  if (typeAlias(value) === 'object') return formatDocument(value as Document);
  return String(value);
}

/** A number that is a whole Int64 (`Value::integral64Bit`), as a bigint. */
export function integral64(value: unknown): bigint | undefined {
  const type = numericType(value);
  if (type === 'int' || type === 'long') return integerValue(value);
  if (type === 'decimal') {
    const n = decimalInteger(String(value));
    return n !== undefined && fitsInt64(n) ? n : undefined;
  }
  if (type === undefined) return undefined;
  const n = toDouble(value);
  return Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63 ? BigInt(n) : undefined;
}

/** The integer a Decimal128's text names, exactly (`2017`, `1.00000000000000`, `2E+3`). */
function decimalInteger(text: string): bigint | undefined {
  const match = /^([+-]?)(\d+)(?:\.(\d*))?(?:E([+-]?\d+))?$/i.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const e = Number(exponent);
  const digits = `${whole}${fraction}`;
  const scale = fraction.length - e;
  if (scale > 0) {
    if (!/^0*$/.test(digits.slice(digits.length - scale))) return undefined;
    const n = BigInt(digits.slice(0, digits.length - scale) || '0');
    return sign === '-' ? -n : n;
  }
  if (-scale > 30) return undefined;
  const n = BigInt(digits) * 10n ** BigInt(-scale);
  return sign === '-' ? -n : n;
}

/** The fields of an operator's document argument, refusing unknown ones with `code`. */
export function checkFields(
  name: string,
  argument: unknown,
  known: readonly string[],
  codes: { notObject: `Location${number}`; unknown: `Location${number}`; notObjectMessage: string },
): Document {
  if (typeAlias(argument) !== 'object') {
    throw new CommandError(codes.notObject, `${codes.notObjectMessage}, found: ${typeAlias(argument)}`);
  }
  for (const field of Object.keys(argument as Document)) {
    if (!known.includes(field)) {
      throw new CommandError(codes.unknown, `Unrecognized argument to ${name}: ${field}`);
    }
  }
  return argument as Document;
}

/** A constant argument (not a path, not an operator), or `undefined` for an expression. */
export function constantOf(expr: unknown): { value: unknown } | undefined {
  if (typeof expr === 'string') return expr.startsWith('$') ? undefined : { value: expr };
  if (typeAlias(expr) === 'object') {
    const keys = Object.keys(expr as Document);
    if (keys.length === 1 && (keys[0] === '$literal' || keys[0] === '$const')) {
      return { value: (expr as Document)[keys[0]] };
    }
    return undefined;
  }
  if (Array.isArray(expr)) return undefined;
  return { value: expr };
}

/** Evaluates the argument `spec[field]` (missing when the document has no such field). */
export function argument(obj: unknown, spec: Document, field: string, options: Options): unknown {
  return evalExpr(obj, spec[field], options);
}

/** What {@link optional} gives for an argument the expression was written without. */
export const ABSENT = Symbol('absent argument');

/** An optional argument: {@link ABSENT} when not given. */
export function optional(obj: unknown, spec: Document, field: string, options: Options): unknown {
  return Object.hasOwn(spec, field) ? evalExpr(obj, spec[field], options) : ABSENT;
}

/** The zone of an optional `timezone` argument: UTC when absent, null when it evaluated to null or missing. */
export function zoneOf(value: unknown): TimeZone | null {
  if (value === ABSENT) return timeZoneArgument(undefined);
  if (isNullish(value)) return null;
  return timeZoneArgument(value);
}
