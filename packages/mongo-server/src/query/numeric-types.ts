/**
 * The numeric BSON types of stored values and MongoDB's promotion rules
 * between them.
 *
 * How the server holds numbers (see `wire/integral-doubles.ts`): an int32 is
 * a JS `number` that is integral, in int32 range and not -0; a double is
 * any other `number` or, when its value would pass for an int32, a bson
 * `Double` marker (so `5.0` stays a double); an Int64 is a `bigint`
 * (`Long` in conditions).
 */

import { bsonTag } from '../bson/bson-compare.js';
import { Double } from '../bson/bson-library.cjs';
import { needsDoubleMarker } from '../wire/integral-doubles.js';

/** A numeric BSON type, widest last: MongoDB's result type is the widest operand's. */
export type NumericType = 'int' | 'long' | 'double' | 'decimal';

const WIDTH: Readonly<Record<NumericType, number>> = { int: 0, long: 1, double: 2, decimal: 3 };

/** The numeric BSON type of a stored value; `undefined` when it is not a number. */
export function numericType(value: unknown): NumericType | undefined {
  if (typeof value === 'number') return needsDoubleMarker(value) ? 'int' : 'double';
  if (typeof value === 'bigint') return 'long';
  switch (bsonTag(value)) {
    case 'Double':
      return 'double';
    case 'Int32':
      return 'int';
    case 'Long':
      return 'long';
    case 'Decimal128':
      return 'decimal';
  }
  return undefined;
}

/** The Int64 range. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Whether `n` fits an Int64. */
export function fitsInt64(n: bigint): boolean {
  return n >= INT64_MIN && n <= INT64_MAX;
}

/** An int32 or Int64 value as a bigint; undefined for a value of any other type. */
export function integerValue(value: unknown): bigint | undefined {
  const type = numericType(value);
  return type === 'int' || type === 'long' ? BigInt(String(value)) : undefined;
}

/** The wider of two numeric types. */
export function widerType(a: NumericType, b: NumericType): NumericType {
  return WIDTH[a] >= WIDTH[b] ? a : b;
}

/** True for a bson `Double` (the marker of an integral double, or one a caller built). */
export function isDoubleMarker(value: unknown): value is Double {
  return bsonTag(value) === 'Double';
}

/** `value` with a `Double` or `Int32` wrapper replaced by its JS number; anything else as is. */
export function unwrapNumber(value: unknown): unknown {
  const tag = bsonTag(value);
  return tag === 'Double' || tag === 'Int32' ? (value as { value: number }).value : value;
}

/**
 * A double result as the server stores it: a `Double` marker when the value
 * would otherwise be written back as int32 (MongoDB's `5 * 1.0` is `5.0`).
 */
export function storedDouble(value: number): number | Double {
  return needsDoubleMarker(value) ? new Double(value) : value;
}

/** Any BSON number as the nearest double (Decimal128 by its text). */
export function toDouble(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const tag = bsonTag(value);
  if (tag === 'Double' || tag === 'Int32') return (value as { value: number }).value;
  return Number(String(value));
}
